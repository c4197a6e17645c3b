/**
 * The shared, strict argument parser of every CLI command.
 *
 * Accepts `--flag value`, `--flag=value`, boolean `--flag`, optional one-letter aliases (`-o value`),
 * positionals, and `--` (everything after it is positional). An unknown flag, a missing or invalid
 * value, or a flag given twice (unless `repeatable`) throws a `UsageError`, which main() turns into
 * exit code 2. `--help` / `-h` are always accepted and reported as `help: true`.
 */
import { UsageError } from './context';

export interface FlagSpec {
  type: 'string' | 'boolean' | 'number';
  /** Allowed values of a string flag. */
  choices?: readonly string[];
  /** May be given several times; the values are collected in order. */
  repeatable?: boolean;
  /** One-letter alias, without the dash (`o` for `-o`). */
  short?: string;
}

export interface ArgSpec<F extends Record<string, FlagSpec>> {
  flags: F;
  /** Fewest positionals accepted (default 0). */
  minPositionals?: number;
  /** Most positionals accepted (default unlimited). */
  maxPositionals?: number;
  /** Name of the positional(s) for messages, e.g. `<skill-folder>`. */
  positionalName?: string;
}

type ValueOf<S extends FlagSpec> = S['type'] extends 'boolean' ? boolean : S['type'] extends 'number' ? number : string;

/** Parsed flag values, keyed by the flag's long name; absent flags are undefined. */
export type FlagValues<F extends Record<string, FlagSpec>> = {
  [K in keyof F]?: F[K]['repeatable'] extends true ? Array<ValueOf<F[K]>> : ValueOf<F[K]>;
};

export interface ParsedArgs<F extends Record<string, FlagSpec>> {
  flags: FlagValues<F>;
  positionals: string[];
  /** `--help` or `-h` was given (the command decides what to print). */
  help: boolean;
}

/** Parses `args` against `spec`; throws UsageError on anything the spec does not allow. */
export function parseArgs<const F extends Record<string, FlagSpec>>(args: readonly string[], spec: ArgSpec<F>): ParsedArgs<F> {
  const flags: Record<string, unknown> = {};
  const positionals: string[] = [];
  let help = false;
  const byShort = new Map<string, string>();
  for (const [name, s] of Object.entries(spec.flags)) if (s.short) byShort.set(s.short, name);

  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else if (/^-\d/.test(arg) || arg === '-' || arg[0] !== '-') {
      positionals.push(arg);
      continue;
    } else if (arg.length === 2) {
      const long = byShort.get(arg[1]);
      if (!long) throw new UsageError(`unknown option '${arg}'`);
      name = long;
    } else {
      throw new UsageError(`unknown option '${arg}'`);
    }
    const flagSpec = Object.prototype.hasOwnProperty.call(spec.flags, name) ? spec.flags[name] : undefined;
    if (!flagSpec) throw new UsageError(`unknown option '--${name}'`);

    let value: unknown;
    if (flagSpec.type === 'boolean') {
      if (inline === undefined || inline === 'true') value = true;
      else if (inline === 'false') value = false;
      else throw new UsageError(`option '--${name}' takes no value (got '${inline}')`);
    } else {
      let raw = inline;
      if (raw === undefined) {
        const next = args[i + 1];
        if (next === undefined || (next.startsWith('-') && next.length > 1 && !/^-\d/.test(next))) {
          throw new UsageError(`option '--${name}' needs a value`);
        }
        raw = next;
        i++;
      }
      if (raw === '') throw new UsageError(`option '--${name}' needs a value`);
      if (flagSpec.type === 'number') {
        const n = Number(raw);
        if (!Number.isFinite(n)) throw new UsageError(`option '--${name}' needs a number (got '${raw}')`);
        value = n;
      } else {
        if (flagSpec.choices && !flagSpec.choices.includes(raw)) {
          throw new UsageError(`option '--${name}' must be one of ${flagSpec.choices.join(', ')} (got '${raw}')`);
        }
        value = raw;
      }
    }

    if (flagSpec.repeatable) {
      const list = (flags[name] as unknown[] | undefined) ?? [];
      list.push(value);
      flags[name] = list;
    } else {
      if (name in flags) throw new UsageError(`option '--${name}' given more than once`);
      flags[name] = value;
    }
  }

  if (!help) {
    const what = spec.positionalName ?? 'argument';
    const min = spec.minPositionals ?? 0;
    if (positionals.length < min) throw new UsageError(`missing ${what}`);
    if (spec.maxPositionals !== undefined && positionals.length > spec.maxPositionals) {
      const extra = positionals[spec.maxPositionals];
      throw new UsageError(`unexpected argument '${extra}'`);
    }
  }
  return { flags: flags as FlagValues<F>, positionals, help };
}

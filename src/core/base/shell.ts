/** Shell quoting shared by every command line Skillflow builds (resume, run script): no value can inject commands. */
import * as path from 'node:path';

/** Which quoting rules a command line follows: POSIX shells (sh, bash, zsh) or PowerShell. */
export type ShellKind = 'posix' | 'powershell';

/** Quotes one word for a POSIX shell: plain words stay readable, anything else is single-quoted. */
export function quotePosix(word: string): string {
  // A leading '=' is excluded: zsh expands `=cmd` to a path.
  if (/^[A-Za-z0-9_/.,:@%+-][A-Za-z0-9_/.,:=@%+-]*$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * PowerShell single-quote quoting: inside '...' only quote characters are special, and PowerShell
 * treats the typographic single quotes (U+2018, U+2019, U+201A, U+201B) like `'`, so each is doubled.
 */
export function quotePowerShell(word: string): string {
  return `'${word.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

/** Quotes `word` as one shell word for `shell`. */
export function quoteShellArg(word: string, shell: ShellKind): string {
  return shell === 'powershell' ? quotePowerShell(word) : quotePosix(word);
}

/** The quoting a terminal shell needs: PowerShell for pwsh/powershell, none for cmd.exe (no safe quoting), else POSIX. */
export function shellKindFor(shellPath: string | undefined): ShellKind | undefined {
  const p = (shellPath ?? '').trim();
  if (/(^|[\\/])(pwsh|powershell)(\.exe)?$/i.test(p)) return 'powershell';
  if (/(^|[\\/])cmd(\.exe)?$/i.test(p)) return undefined;
  return 'posix';
}

const INTERPRETERS: Record<string, string[]> = {
  '.py': ['python3'],
  '.sh': ['bash'],
  '.bash': ['bash'],
  '.js': ['node'],
  '.mjs': ['node'],
  '.cjs': ['node'],
  '.rb': ['ruby'],
  '.pl': ['perl'],
  '.ps1': ['pwsh', '-File'],
};

/** The interpreter for a script by its extension, or undefined when the file is run directly. */
export function interpreterFor(file: string): string[] | undefined {
  return INTERPRETERS[path.extname(file).toLowerCase()];
}

/**
 * The command line that runs `<skillDir>/<scriptRelPath>` from the skill folder:
 * `cd '<skillDir>' && python3 scripts/x.py` (POSIX) or `Set-Location -LiteralPath '…'; & python3 'scripts/x.py'`.
 */
export function scriptCommandLine(skillDir: string, scriptRelPath: string, shell: ShellKind): string {
  const rel = scriptRelPath.split(path.sep).join('/');
  const interpreter = interpreterFor(rel);
  if (shell === 'powershell') {
    const target = quotePowerShell(interpreter ? rel : `./${rel}`);
    const run = interpreter ? `${interpreter.join(' ')} ${target}` : target;
    return `Set-Location -LiteralPath ${quotePowerShell(skillDir)}; & ${run}`;
  }
  const target = quotePosix((interpreter || rel.startsWith('/')) ? rel : `./${rel}`);
  const run = interpreter ? `${interpreter.join(' ')} ${target}` : target;
  return `cd ${quotePosix(skillDir)} && ${run}`;
}

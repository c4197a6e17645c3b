/**
 * A three-way merge of JSON files for the guarded writes: when another program rewrote a JSON file (status.json,
 * registry.json, settings.local.json) from the version we had read, while the path already held ours, its changes
 * are put into the current text. Keys merge one by one, arrays both sides only appended to keep both appendices
 * (theirs first, no element twice), and a value both sides changed differently keeps the other program's (the
 * caller's edit is applied again on top). The current text is edited in place (`jsonc-parser`), so every byte outside
 * the merged values stays as it is.
 */
import { applyEdits, type JSONPath, modify } from 'jsonc-parser';
import { detectFormatting } from './jsonFormat';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(o: Obj, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => has(b, k) && same(a[k], b[k]));
  }
  return false;
}

function get(o: unknown, k: string): unknown {
  return isObj(o) && has(o, k) ? o[k] : undefined;
}

function merge3(base: unknown, theirs: unknown, ours: unknown): unknown {
  if (same(theirs, base)) return ours;
  if (same(ours, base) || same(ours, theirs)) return theirs;
  if (isObj(theirs) && isObj(ours) && (isObj(base) || base === undefined)) {
    const out: Obj = Object.create(null) as Obj;
    for (const k of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      const v = merge3(get(base, k), get(theirs, k), get(ours, k));
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (Array.isArray(theirs) && Array.isArray(ours)) {
    const b = Array.isArray(base) ? base : [];
    if (b.every((x, i) => same(x, theirs[i]) && same(x, ours[i]))) {
      const added = theirs.slice(b.length);
      return [...theirs, ...ours.slice(b.length).filter((x) => !added.some((y) => same(x, y)))];
    }
  }
  return theirs;
}

/** Edits `text` (whose value is `from`) so that it holds `to`, one value at a time. */
function patch(text: string, path: JSONPath, from: unknown, to: unknown, fmt: ReturnType<typeof detectFormatting>): string {
  if (same(from, to)) return text;
  if (isObj(from) && isObj(to)) {
    let t = text;
    for (const k of new Set([...Object.keys(from), ...Object.keys(to)])) t = patch(t, [...path, k], get(from, k), get(to, k), fmt);
    return t;
  }
  if (!path.length) return `${JSON.stringify(to, null, fmt.insertSpaces ? fmt.tabSize : '\t')}${fmt.eol}`;
  return applyEdits(text, modify(text, path, to, { formattingOptions: fmt }));
}

function decode(b: Buffer): { bom: string; text: string; value: unknown } | undefined {
  const all = b.toString('utf8');
  if (!Buffer.from(all, 'utf8').equals(b)) return undefined; // not UTF-8: never rewritten
  const bom = all.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const text = all.slice(bom.length);
  try { return { bom, text, value: JSON.parse(text) as unknown }; } catch { return undefined; }
}

/**
 * What `current` becomes with the changes another program made from `ancestor` to `theirs` folded in; undefined
 * when a text is not JSON (half-written, or not UTF-8).
 */
export function mergeJsonChanges(ancestor: Buffer, theirs: Buffer, current: Buffer): Buffer | undefined {
  const a = decode(ancestor);
  const t = decode(theirs);
  const c = decode(current);
  if (!a || !t || !c) return undefined;
  try {
    const merged = merge3(a.value, t.value, c.value);
    return Buffer.from(c.bom + patch(c.text, [], c.value, merged, detectFormatting(c.text)), 'utf8');
  } catch {
    return undefined; // nested too deeply to walk: no merge
  }
}

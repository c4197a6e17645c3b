/**
 * A unified diff of two texts (the format of `diff -u` and `git diff`), for `skillflow validate --fix-dry-run`.
 * Lines are compared after the common first and last lines are set aside; the changed middle is matched by a longest
 * common subsequence (a fix changes a few lines, so the middle is small; past MAX_CELLS it is shown as one change).
 */

const CONTEXT = 3;
/** Above this many line pairs in the changed middle, it is shown as removed and added whole. */
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; text: string };

/** Lines of a text, each with its line break ('' for the last line when the text does not end with one). */
function splitLines(text: string): string[] {
  const out = text.split(/(?<=\r\n|\n|\r(?!\n))/);
  return out.length === 1 && out[0] === '' ? [] : out;
}

function middleOps(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS) return [...a.map((text) => ({ kind: '-' as const, text })), ...b.map((text) => ({ kind: '+' as const, text }))];
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push({ kind: ' ', text: a[i] }); i++; j++; }
    else if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) { ops.push({ kind: '+', text: b[j] }); j++; }
    else { ops.push({ kind: '-', text: a[i] }); i++; }
  }
  // Removals before additions within a run of changes, as diff prints them.
  for (let k = 0; k < ops.length;) {
    if (ops[k].kind === ' ') { k++; continue; }
    let end = k;
    while (end < ops.length && ops[end].kind !== ' ') end++;
    const run = ops.slice(k, end);
    ops.splice(k, end - k, ...run.filter((o) => o.kind === '-'), ...run.filter((o) => o.kind === '+'));
    k = end;
  }
  return ops;
}

function show(op: Op): string {
  // A CRLF line keeps its CR, as in `diff -u` (a patch tool needs it to match the line).
  const ended = op.text.endsWith('\n');
  return `${op.kind}${ended ? op.text : `${op.text}\n\\ No newline at end of file\n`}`;
}

/** The unified diff from `before` to `after` with `---`/`+++` headers naming `oldName`/`newName`; '' when they are equal. */
export function unifiedDiff(before: string, after: string, oldName: string, newName: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [
    ...a.slice(0, head).map((text) => ({ kind: ' ' as const, text })),
    ...middleOps(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((text) => ({ kind: ' ' as const, text })),
  ];
  const changed = ops.map((o, k) => (o.kind === ' ' ? -1 : k)).filter((k) => k >= 0);
  let out = `--- ${oldName}\n+++ ${newName}\n`;
  for (let c = 0; c < changed.length;) {
    // One hunk: changes closer than twice the context share it.
    let last = c;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] <= 2 * CONTEXT + 1) last++;
    const from = Math.max(0, changed[c] - CONTEXT);
    const to = Math.min(ops.length, changed[last] + CONTEXT + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let k = 0; k < from; k++) { if (ops[k].kind !== '+') oldStart++; if (ops[k].kind !== '-') newStart++; }
    const hunk = ops.slice(from, to);
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out += `@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@\n`;
    for (const o of hunk) out += show(o);
    c = last + 1;
  }
  return out;
}

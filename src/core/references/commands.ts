/**
 * Script paths in the commands a skill tells Claude to run: a script invoked through an interpreter
 * (`python3 plugins/a/skills/b/scripts/c.py`, `node x.js`, `bash x.sh`, `uv run cli.py`) in a shell-like fenced block
 * (no language, `bash`, `sh`, `shell`, `zsh`, `console`) or in inline code. resolve.ts (checkScriptPaths) resolves
 * each the way it will run once the plugin is installed. Paths with a variable, an absolute or home path, a template
 * or a glob are not read here (the variables are read by markdown.ts).
 */
import { decodedSlice, type LineIndex, Utf8LineIndex } from '../base/text';
import type { ReferenceCandidate } from './extract';

/** Quick test: a body without any of these words runs no script. */
const INTERPRETER_WORD = /\b(?:python3?|node|bash|sh|zsh|uv|bun|deno|tsx|ts-node|ruby|perl)\b/;

/**
 * An interpreter, its options, then the script: a relative path with a script extension, optionally quoted. The
 * interpreter is a word of its own (after a blank, `;`, `&`, `|`, `(`, `!` or a backtick: `uv run --with x python a.py`).
 */
const COMMAND = /(?:^|[\s;&|(!`]|\$\()\s*(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:python3?|node|bash|sh|zsh|uv\s+run|bun(?:\s+run)?|deno\s+run|npx\s+tsx|tsx|ts-node|ruby|perl)(?:\s+-{1,2}[\w-]+(?:[= ](?![^\s'"]*\.(?:py|m?js|cjs|ts|sh|rb|pl)\b)[^\s'"]+)?)*\s+(["']?)([A-Za-z0-9_.][A-Za-z0-9_./@+-]*\.(?:py|mjs|cjs|js|ts|sh|rb|pl))\1(?=$|[\s;|&)`])/g;

/** Fenced blocks whose commands are run: no language or a shell. */
const SHELL_FENCE = /^(?:|bash|sh|shell|zsh|console|terminal)$/i;

/** Script paths of the commands in the body lines `firstLine`… of `lines` (file line `firstLineNumber`). Never throws. */
export function extractScriptCommands(lines: LineIndex, firstLine: number, firstLineNumber: number): ReferenceCandidate[] {
  const found: ReferenceCandidate[] = [];
  const src = lines.text;
  const starts = lines.starts;
  if (firstLine >= starts.length || !INTERPRETER_WORD.test(src.slice(starts[firstLine]))) return found;
  const bytes = lines instanceof Utf8LineIndex ? lines.bytes : undefined;
  let fence = ''; // the open fence's marker (``` or ~~~, as long as written), '' outside
  let shell = false; // the open fence runs shell commands
  for (let i = firstLine; i < starts.length; i++) {
    const t = decodedSlice(src, bytes, starts[i], lines.lineEnd(i));
    if (t.length > 20000) continue;
    const marker = /^\s{0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(t);
    if (fence === '') {
      if (marker) { fence = marker[1]; shell = SHELL_FENCE.test(marker[2]); continue; }
    } else if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length && marker[2] === '') {
      fence = '';
      continue;
    }
    const line = firstLineNumber + (i - firstLine);
    if (fence !== '') {
      if (shell) commandsIn(t, 0, t.length, line, found);
      continue;
    }
    // Inline code in prose: each code span is a command of its own.
    for (let a = t.indexOf('`'); a >= 0;) {
      let n = a;
      while (t.charCodeAt(n) === 96) n++;
      const ticks = t.slice(a, n);
      const close = t.indexOf(ticks, n);
      if (close < 0) break;
      commandsIn(t, n, close, line, found);
      a = t.indexOf('`', close + ticks.length);
    }
  }
  return found;
}

function commandsIn(t: string, from: number, to: number, line: number, found: ReferenceCandidate[]): void {
  const text = t.slice(from, to);
  if (!INTERPRETER_WORD.test(text)) return;
  COMMAND.lastIndex = 0;
  for (let m = COMMAND.exec(text); m !== null; m = COMMAND.exec(text)) {
    const path = m[2];
    const column = from + m.index + m[0].length - path.length - m[1].length;
    const c: ReferenceCandidate = { target: path, range: { line, column: column + 1, endLine: line, endColumn: column + 1 + path.length }, kind: 'path' };
    // The line names the script's folder too (a table row "`scripts/x.py` | … | `python3 x.py`"): it says where the
    // file is.
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!path.includes('/') && t.includes(`/${name}`)) c.tentative = true;
    found.push(c);
  }
}

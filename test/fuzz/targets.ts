// The fuzz targets: one property per promise (never throws, linear time, text = bytes, ranges inside the document,
// writes touch only their lines and fields, nothing outside the workspace) and per surface (SKILL.md validation,
// STATUS blocks, checkpoint context files, workflow files, discovery over hostile symlinks).
import * as fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as nodePath from 'node:path';
import { applyAnswers, parseContextFile } from '../../src/core/checkpoint/context';
import { resolveContextPath } from '../../src/core/checkpoint/paths';
import { buildResumeCommand, resumeInvocation } from '../../src/core/checkpoint/resume';
import { parseStatusBlock } from '../../src/core/checkpoint/status';
import { nodeFileSystem } from '../../src/core/base/fs';
import type { Problem, Range } from '../../src/core/base/types';
import { discoverPath } from '../../src/core/discovery/discover';
import { validateSkillMdBytes } from '../../src/core/validation/bytes';
import { validateSkillMd } from '../../src/core/validation/validateSkill';
import { applyTextEdits, disableForFileEdit, editsOverlap, fixAllEdits } from '../../src/core/fixes/skillFixes';
import { agentSkillAt, commandMentionAt, completionsAt, hoverAt } from '../../src/core/editor/features';
import { parseJson } from '../../src/core/workflow/json';
import { endWorkflow, planEnd } from '../../src/core/workflow/end';
import { scanWorkflows } from '../../src/core/workflow/scan';
import { cacheTarget } from './cache';
import { cliOutputTarget, writesTarget } from './writes';
import { CORPUS, deepYaml, filesUnder, GROWING, growing, invalidUtf8, lineEndings, mutationsOf, randomBytes } from './gen';

/** One property: an input generator and a check that throws (or returns false) on a failure. */
export interface Property<T = unknown> {
  name: string;
  arb: fc.Arbitrary<T>;
  check: (input: T) => void;
  /** The input's size in bytes (for the slowest-input report and the time ceiling). */
  size: (input: T) => number;
  /** A time property: checked only with `--timing` (never in `npm test`). */
  timing?: boolean;
  /** Never timed: a sequence of steps on the real disk, or a property that waits for another process (its time is not its own). */
  untimed?: boolean;
  /** A short description of an input (for the slowest-input report). */
  describe?: (input: T) => string;
}

export interface Target {
  name: string;
  properties: Property[];
}

export function prop<T>(p: Property<T>): Property {
  return p as unknown as Property;
}

/** The deepest call recursing() reached; with `target` Infinity, how deep the stack goes (recursing() frames). */
let reached = 0;
function recursing<T>(n: number, target: number, fn: () => T): T {
  reached = n;
  return n >= target ? fn() : recursing(n + 1, target, fn);
}

let stackFrames: number | undefined;
/**
 * `fn()` run with most of the stack already used (as in an editor's deep call chain): an answer that differs from the
 * one at the top, or a stack overflow, means a recursion that grows with the input.
 */
function nearStackLimit<T>(fn: () => T): T {
  if (stackFrames === undefined) {
    try { recursing(0, Infinity, () => undefined); } catch { /* the stack's end */ }
    stackFrames = reached;
  }
  return recursing(0, Math.floor(stackFrames * 0.75), fn);
}

const sandboxes: string[] = [];
/**
 * A new temporary folder for the properties that build trees on disk, removed when the process exits. On a RAM file
 * system when there is one (Linux's /dev/shm): a real kernel file system (symlinks, FIFOs, real paths), where making
 * and removing a tree costs a tenth of what it costs on a disk.
 */
export function tempSandbox(prefix: string): string {
  let parent = nodeOs.tmpdir();
  try {
    nodeFs.accessSync('/dev/shm', nodeFs.constants.W_OK);
    if (nodeFs.statSync('/dev/shm').isDirectory()) parent = '/dev/shm';
  } catch { /* no RAM file system: the temporary folder */ }
  const dir = nodeFs.mkdtempSync(nodePath.join(parent, prefix));
  if (!sandboxes.length) process.on('exit', () => { for (const d of sandboxes) nodeFs.rmSync(d, { recursive: true, force: true }); });
  sandboxes.push(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------------------------
// SKILL.md

const CORPUS_BYTES = CORPUS.map((c) => c.bytes);
const SKILL_DIR = CORPUS[0].dir;
const ctx = { profile: 'claude-code' as const, folderName: nodePath.basename(SKILL_DIR), skillDir: SKILL_DIR, rootDir: nodePath.dirname(SKILL_DIR) };

/** Every kind of hostile SKILL.md. */
const skillMdBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: mutationsOf(CORPUS_BYTES) },
  { weight: 2, arbitrary: lineEndings(mutationsOf(CORPUS_BYTES, 3)) },
  { weight: 1, arbitrary: randomBytes },
  { weight: 1, arbitrary: deepYaml },
  { weight: 1, arbitrary: invalidUtf8(CORPUS_BYTES) },
  { weight: 1, arbitrary: growing.map(({ kind, n }) => Buffer.from(GROWING[kind](n >> 4))) },
);

/** The lines of a text as the validator counts them (without a BOM; CRLF, LF and CR end a line). */
export function linesOf(text: string): string[] {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
}

/** Throws unless `r` lies inside the document: its lines exist, columns within the line (end at most one past it). */
export function assertInside(r: Range, lines: string[], what: string): void {
  const ok = Number.isInteger(r.line) && Number.isInteger(r.column) && Number.isInteger(r.endLine) && Number.isInteger(r.endColumn)
    && r.line >= 1 && r.line <= lines.length && r.endLine >= r.line && r.endLine <= lines.length
    && r.column >= 1 && r.column <= lines[r.line - 1].length + 1 && r.endColumn >= 1 && r.endColumn <= lines[r.endLine - 1].length + 1
    && (r.endLine > r.line || r.endColumn >= r.column);
  if (!ok) throw new Error(`range outside the document: ${what} ${JSON.stringify(r)} (line length ${lines[r.line - 1]?.length})`);
}

function problemsText(problems: Problem[]): string {
  return JSON.stringify(problems.map((p) => [p.code, p.severity, p.line, p.column, p.endLine, p.endColumn, p.message]));
}

const skillmd: Target = {
  name: 'skillmd',
  properties: [
    prop<Buffer>({
      name: 'never-throws', arb: skillMdBytes, size: (b) => b.length,
      check: (b) => {
        validateSkillMd(b.toString('utf8'), ctx, nodeFileSystem);
        validateSkillMdBytes(b, ctx, nodeFileSystem);
      },
    }),
    prop<Buffer>({
      name: 'text-equals-bytes', arb: skillMdBytes, size: (b) => b.length,
      check: (b) => {
        const text = validateSkillMd(b.toString('utf8'), ctx, nodeFileSystem);
        const bytes = validateSkillMdBytes(b, ctx, nodeFileSystem);
        const a = problemsText(text.problems);
        const c = problemsText(bytes.problems);
        if (a !== c) throw new Error(`text path ${a}\nbytes path ${c}`);
        const ra = JSON.stringify(text.references);
        const rc = JSON.stringify(bytes.references);
        if (ra !== rc) throw new Error(`references differ: ${ra} vs ${rc}`);
      },
    }),
    prop<Buffer>({
      name: 'same-at-any-stack-depth', arb: skillMdBytes, size: (b) => b.length,
      check: (b) => {
        const text = b.toString('utf8');
        const top = problemsText(validateSkillMd(text, ctx, nodeFileSystem).problems);
        const deep = nearStackLimit(() => problemsText(validateSkillMd(text, ctx, nodeFileSystem).problems));
        if (top !== deep) throw new Error(`at the top ${top}\nnear the stack's end ${deep}`);
      },
    }),
    prop<Buffer>({
      name: 'ranges-inside', arb: skillMdBytes, size: (b) => b.length,
      check: (b) => {
        const text = b.toString('utf8');
        const lines = linesOf(text);
        const res = validateSkillMd(text, ctx, nodeFileSystem);
        for (const p of res.problems) assertInside(p, lines, p.code);
        for (const r of res.references) assertInside(r.range, lines, `reference ${r.target}`);
        for (const k of res.parsed.keys) {
          assertInside(k.keyRange, lines, `key ${k.key}`);
          if (k.valueRange) assertInside(k.valueRange, lines, `value of ${k.key}`);
        }
      },
    }),
    prop<Buffer>({
      // Fix all / validate --fix: edits inside the document, never overlapping, and every line they do not touch kept.
      name: 'fixes-touch-only-their-lines', arb: skillMdBytes, size: (b) => b.length,
      check: (b) => {
        const text = b.toString('utf8');
        const lines = linesOf(text);
        const edits = fixAllEdits(text, nodePath.join(SKILL_DIR, 'SKILL.md'), validateSkillMd(text, ctx, nodeFileSystem).problems);
        edits.forEach((e, i) => {
          assertInside(e.range, lines, `edit ${JSON.stringify(e.newText)}`);
          if (edits.some((o, j) => j !== i && editsOverlap(o.range, e.range))) throw new Error(`overlapping edits ${JSON.stringify(edits)}`);
        });
        const after = linesOf(applyTextEdits(text, edits));
        // An edit may replace lines by fewer or more (a value folded over two lines written on one): the lines after
        // it move by the difference.
        const shift = (e: (typeof edits)[number]) => linesOf(e.newText).length - 1 - (e.range.endLine - e.range.line);
        const delta = edits.reduce((n, e) => n + shift(e), 0);
        if (after.length !== lines.length + delta) throw new Error(`the fixes changed the line count: ${lines.length} → ${after.length} (the edits account for ${delta})`);
        lines.forEach((l, i) => {
          if (edits.some((e) => e.range.line <= i + 1 && i + 1 <= e.range.endLine)) return;
          const moved = i + edits.filter((e) => e.range.endLine < i + 1).reduce((n, e) => n + shift(e), 0);
          if (after[moved] !== l) throw new Error(`line ${i + 1} changed without an edit: ${JSON.stringify(l)} → ${JSON.stringify(after[moved])}`);
        });
      },
    }),
    prop<{ b: Buffer; line: number; column: number }>({
      // The editors' features (VS Code and the language server): never throw at any position, ranges inside the document.
      name: 'editor-features-inside', arb: fc.record({ b: skillMdBytes, line: fc.nat({ max: 40 }), column: fc.nat({ max: 120 }) }), size: ({ b }) => b.length,
      check: ({ b, line, column }) => {
        const text = b.toString('utf8').replace(/^\uFEFF/, '');
        const lines = linesOf(text);
        const at = { line: 1 + (line % (lines.length + 1)), column: 1 + column };
        for (const kind of ['skill', 'agent', 'command'] as const) {
          const hover = hoverAt(kind, text, at);
          if (hover) assertInside(hover.range, lines, 'hover');
          for (const c of completionsAt(kind, text, at, 'claude-code') ?? []) assertInside(c.range, lines, `completion ${c.label}`);
        }
        const entry = agentSkillAt(text, at);
        if (entry) assertInside(entry.range, lines, 'skills: entry');
        const mention = commandMentionAt(text, at);
        if (mention) assertInside(mention.range, lines, 'command mention');
        const disable = disableForFileEdit(text, 'yaml-syntax');
        if (disable) assertInside(disable.range, lines, 'disable for file');
      },
    }),
    prop<{ kind: string; n: number }>({
      name: 'linear-time', timing: true, arb: growing.map(({ kind, n }) => ({ kind, n: n * 10 })), size: ({ kind, n }) => GROWING[kind](n).length,
      describe: ({ kind, n }) => `${kind} ${n}`,
      check: ({ kind, n }) => {
        const text = GROWING[kind](n);
        validateSkillMd(text, ctx, nodeFileSystem);
        validateSkillMdBytes(Buffer.from(text), ctx, nodeFileSystem);
      },
    }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// STATUS blocks (Handle Skill Output: a selection or the clipboard)

const STATUS_SAMPLES = [
  'STATUS: AWAIT\nCONTEXT_PATH: .agent/tmp/x-context.md\n',
  'STATUS: SUCCESS\nOUTPUT:\n  REPORT: a.md\n  NEXT: b\n',
  '> **STATUS:** ERROR\n> OUTPUT: it broke\n',
  '```\nSTATUS: AWAIT CONTEXT_PATH: `a b-context.md`\n```\n',
].map((s) => Buffer.from(s));

const statusText: fc.Arbitrary<string> = fc.oneof(
  mutationsOf(STATUS_SAMPLES, 6).map((b) => b.toString('utf8')),
  fc.record({ head: fc.constantFrom(...STATUS_SAMPLES.map(String)), pad: fc.constantFrom(' ', '\t', '>', '*', '-', '`', 'x', ': '), n: fc.integer({ min: 1, max: 5000 }), tail: fc.constantFrom('', '\n', 'x') })
    .map(({ head, pad, n, tail }) => `${head.replace('\n', `${pad.repeat(n)}\n`)}${tail}`),
);

const statusGrowing = fc.record({ pad: fc.constantFrom(' ', '\t', '> ', '**', '- ', '`', 'a', ': ', '\n', 'STATUS: AWAIT\n'), n: fc.integer({ min: 1000, max: 200_000 }) })
  .map(({ pad, n }) => `STATUS: AWAIT${pad.repeat(n / pad.length)}\nCONTEXT_PATH: x\n`);

const output: Target = {
  name: 'status',
  properties: [
    prop<string>({ name: 'never-throws', arb: statusText, size: (s) => s.length, check: (s) => { parseStatusBlock(s); } }),
    prop<string>({ name: 'linear-time', timing: true, arb: statusGrowing, size: (s) => s.length, check: (s) => { parseStatusBlock(s); } }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Checkpoint context files

const CONTEXT_FILES = filesUnder('test/fixtures/checkpoint', (n) => n.endsWith('.md')).map((p) => nodeFs.readFileSync(p));
const contextText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: mutationsOf(CONTEXT_FILES) },
  { weight: 2, arbitrary: lineEndings(mutationsOf(CONTEXT_FILES, 3)) },
  { weight: 1, arbitrary: randomBytes },
  { weight: 1, arbitrary: deepYaml },
  { weight: 1, arbitrary: invalidUtf8(CONTEXT_FILES) },
).map((b) => b.toString('utf8'));

/** An answer a user could type: any text, with the characters context files care about. */
const answerValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.array(fc.constantFrom('a', ' ', '\n', '\r\n', '## x', '### Q2: y', '---', '\\##', '<!--', '-->', '```', 'Answer: z', '  ', '\t', 'main', 'é'), { maxLength: 12 }).map((a) => a.join('')),
);

/** `text` without the regions `[start, end)` (sorted, disjoint). */
function without(text: string, regions: Array<[number, number]>): string {
  let out = '';
  let at = 0;
  for (const [s, e] of regions) { out += text.slice(at, s); at = e; }
  return out + text.slice(at);
}

// A workspace with a folder that links outside, for the path properties.
let sandbox: { ws: string; outside: string } | undefined;
function workspaceSandbox(): { ws: string; outside: string } {
  if (sandbox) return sandbox;
  const base = tempSandbox('skillflow-fuzz-');
  const ws = nodePath.join(base, 'ws');
  const outside = nodePath.join(base, 'outside');
  nodeFs.mkdirSync(nodePath.join(ws, '.agent', 'tmp'), { recursive: true });
  nodeFs.mkdirSync(nodePath.join(outside, 'deep'), { recursive: true });
  nodeFs.writeFileSync(nodePath.join(ws, '.agent', 'tmp', 'a-context.md'), CONTEXT_FILES[0]);
  nodeFs.writeFileSync(nodePath.join(outside, 'b-context.md'), CONTEXT_FILES[0]);
  nodeFs.symlinkSync(outside, nodePath.join(ws, 'out-link'));
  nodeFs.symlinkSync('/', nodePath.join(ws, 'root-link'));
  nodeFs.symlinkSync('..', nodePath.join(ws, 'up-link'));
  nodeFs.symlinkSync(nodePath.join(outside, 'b-context.md'), nodePath.join(ws, '.agent', 'tmp', 'c-context.md'));
  nodeFs.symlinkSync(nodePath.join(outside, 'nothing'), nodePath.join(ws, 'dangling'));
  sandbox = { ws, outside };
  return sandbox;
}

const pathSegment = fc.constantFrom('..', '.', '', 'out-link', 'root-link', 'up-link', 'dangling', '.agent', 'tmp', 'a-context.md', 'b-context.md',
  'c-context.md', 'new-context.md', 'deep', 'etc', 'x\u0015touch PWNED #-context.md', 'x\n-context.md', 'x\u001b[2J', 'x\u0001', '\u007f', 'a b');
const contextPath = fc.tuple(fc.constantFrom('', '/', './'), fc.array(pathSegment, { minLength: 1, maxLength: 6 }))
  .map(([lead, segs]) => lead + segs.join('/'));

/** The deepest existing ancestor of `p` (itself when it exists), by real path. */
function realAncestor(p: string): string {
  for (let at = p; ; at = nodePath.dirname(at)) {
    try { return nodeFs.realpathSync.native(at); } catch { if (at === nodePath.dirname(at)) return at; }
  }
}

function insideDir(root: string, p: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

const checkpoint: Target = {
  name: 'checkpoint',
  properties: [
    prop<string>({ name: 'parse-never-throws', arb: contextText, size: (s) => s.length, check: (s) => { parseContextFile(s); } }),
    prop<string>({
      name: 'parse-same-at-any-stack-depth', arb: contextText, size: (s) => s.length,
      check: (s) => {
        const top = JSON.stringify(parseContextFile(s));
        const deep = nearStackLimit(() => JSON.stringify(parseContextFile(s)));
        if (top !== deep) throw new Error(`at the top ${top.slice(0, 1000)}\nnear the stack's end ${deep.slice(0, 1000)}`);
      },
    }),
    prop<{ text: string; answers: Array<[number, string]> }>({
      name: 'answer-writes-only-its-fields', size: (i) => i.text.length,
      arb: fc.record({ text: contextText, answers: fc.array(fc.tuple(fc.nat({ max: 9 }), answerValue), { maxLength: 4 }) }),
      check: ({ text, answers }) => {
        const parsed = parseContextFile(text);
        if (!parsed.questions.length) return;
        const values: Record<string, string> = {};
        for (const [i, v] of answers) values[parsed.questions[i % parsed.questions.length].id] = v;
        const out = applyAnswers(text, parsed, values);
        const again = parseContextFile(out);
        const ids = (p: typeof parsed) => p.questions.map((q) => q.id).join(',');
        if (ids(again) !== ids(parsed)) throw new Error(`the question set changed: ${ids(parsed)} -> ${ids(again)}`);
        // Questions pair up by position (the ids are the same, in the same order; an id may repeat).
        const edited = (p: typeof parsed, inserted: boolean): Array<[number, number]> => p.questions
          .map((q, k) => ({ q, old: parsed.questions[k] }))
          .filter(({ q }) => Object.prototype.hasOwnProperty.call(values, q.id))
          .map(({ q, old }) => {
            // An Answer field that was inserted brings its marker line with it.
            const extra = inserted && !old.answerRegion.hasMarker ? `${parsed.eol}Answer:`.length : 0;
            return [q.answerRegion.start - extra, q.answerRegion.end] as [number, number];
          })
          .sort((a, b) => a[0] - b[0]);
        const before = without(text, edited(parsed, false));
        const after = without(out, edited(again, true));
        if (before !== after) throw new Error(`bytes outside the answers changed:\n${JSON.stringify(before)}\n${JSON.stringify(after)}`);
      },
    }),
    prop<{ text: string; answers: Array<[number, string]> }>({
      name: 'answer-reads-back', size: (i) => i.text.length,
      arb: fc.record({ text: contextText, answers: fc.array(fc.tuple(fc.nat({ max: 9 }), answerValue.filter((v) => v.trim() !== '')), { maxLength: 4 }) }),
      check: ({ text, answers }) => {
        const parsed = parseContextFile(text);
        if (!parsed.questions.length || !parsed.valid) return;
        const values: Record<string, string> = {};
        for (const [i, v] of answers) values[parsed.questions[i % parsed.questions.length].id] = v;
        const again = parseContextFile(applyAnswers(text, parsed, values));
        for (const [id, v] of Object.entries(values)) {
          const q = again.questions.find((x) => x.id === id);
          const want = v.trim().split(/\r\n|\r|\n/).join('\n');
          const got = q?.answer.split(/\r\n|\r|\n/).join('\n');
          if (got !== want) throw new Error(`${id}: wrote ${JSON.stringify(v)}, read back ${JSON.stringify(q?.answer)}`);
        }
      },
    }),
    prop<string>({
      name: 'paths-stay-inside', arb: contextPath, size: (s) => s.length,
      check: (p) => {
        const { ws } = workspaceSandbox();
        const r = resolveContextPath(nodeFileSystem, ws, p);
        if (!r.ok) return;
        const real = realAncestor(r.absPath);
        if (!insideDir(nodeFs.realpathSync(ws), real)) throw new Error(`accepted ${JSON.stringify(p)}: ${r.absPath} is really ${real}`);
      },
    }),
    prop<{ p: string; skill: string }>({
      name: 'typed-command-no-controls', arb: fc.record({ p: contextPath, skill: fc.constantFrom('review', 'x\u0015y', 'a\nb', 'ok-skill') }), size: (i) => i.p.length,
      check: ({ p, skill }) => {
        const { ws } = workspaceSandbox();
        const r = resolveContextPath(nodeFileSystem, ws, p);
        if (!r.ok) return;
        for (const shell of ['posix', 'powershell'] as const) {
          const built = buildResumeCommand(undefined, resumeInvocation(skill, r.relPath), shell);
          if (!built.ok) continue; // refused: nothing is typed
          const cmd = built.command;
          // eslint-disable-next-line no-control-regex
          if (/[\u0000-\u001f\u007f-\u009f]/.test(cmd)) throw new Error(`typed command carries a control character: ${JSON.stringify(cmd)}`);
        }
      },
    }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Workflow files

const WORKFLOW_DIR = 'test/fixtures/workflow/basic';
const REGISTRY = nodeFs.readFileSync(nodePath.join(WORKFLOW_DIR, '.workflow', 'registry.json'));
const STATUSES = filesUnder(WORKFLOW_DIR, (n) => n === 'status.json').map((p) => nodeFs.readFileSync(p));
const HOSTILE_STATUS = Buffer.from('{\n  "phase": "WORK",\n  "mode": "full",\n  "big": 12345678901234567890,\n  "huge": 1e400,\n  "neg": -0,\n  "f": 1.50,\n  "s": "\\u00e9\\/",\n  "transitions": []\n}\n');
const jsonText = fc.oneof(
  mutationsOf([REGISTRY, ...STATUSES, HOSTILE_STATUS]),
  lineEndings(mutationsOf([REGISTRY, ...STATUSES, HOSTILE_STATUS], 2)),
  randomBytes,
).map((b) => b.toString('utf8'));

/** Top-level members of a JSON object text: key -> its raw `"key": value` source. Undefined when it is no object. */
function membersOf(text: string): Map<string, string> | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  const lines = text.split('\n');
  const offset = (line: number, column: number) => { let o = 0; for (let i = 0; i < line - 1; i++) o += lines[i].length + 1; return o + column - 1; };
  const out = new Map<string, string>();
  for (const key of Object.keys(parsed.value)) {
    const loc = parsed.locate([key]);
    if (!loc || !loc.key) continue;
    out.set(key, text.slice(offset(loc.key.line, loc.key.column), offset(loc.value.endLine, loc.value.endColumn)));
  }
  return out;
}

const workflowEdits = fc.record({
  status: fc.oneof(mutationsOf([...STATUSES, HOSTILE_STATUS], 3), fc.constantFrom(...STATUSES, HOSTILE_STATUS)).map((b) => b.toString('utf8')),
  registry: fc.oneof(mutationsOf([REGISTRY], 3), fc.constant(REGISTRY)).map((b) => b.toString('utf8')),
  key: fc.constantFrom('20261121-143000', '20261121-150000', '__proto__', 'x'),
  target: fc.constantFrom('CANCELLED' as const, 'FAILED' as const),
});

const endGrowing = fc.record({ n: fc.integer({ min: 1000, max: 100_000 }), filler: fc.constantFrom(' ', '\n', '"a": 1,', '[', '{"a":', '\\', '"') })
  .map(({ n, filler }) => ({ status: `{"phase": "WORK", "x": "${filler.repeat(n / filler.length).replace(/"/g, '\\"')}", "pad":${' '.repeat(n)}1}`, registry: `{${' '.repeat(n)}"k": "w"}` }));

let wfSandbox: string | undefined;
function workflowSandbox(): string {
  if (wfSandbox) return wfSandbox;
  wfSandbox = tempSandbox('skillflow-fuzz-wf-');
  return wfSandbox;
}

/** Every file under `dir` with its bytes (symlinks not followed). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of nodeFs.readdirSync(d, { withFileTypes: true })) {
      const p = nodePath.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(p, nodeFs.readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

const workflow: Target = {
  name: 'workflow',
  properties: [
    prop<string>({ name: 'parse-never-throws', arb: jsonText, size: (s) => s.length, check: (s) => { parseJson(s); } }),
    prop<{ status: string; registry: string; key: string; target: 'CANCELLED' | 'FAILED' }>({
      name: 'end-writes-only-its-fields', arb: workflowEdits, size: (i) => i.status.length + i.registry.length,
      check: ({ status, registry, key, target }) => {
        const plan = planEnd(status, registry, key, target, new Date(Date.UTC(2026, 10, 24)));
        if (!plan.ok) return;
        const before = membersOf(status)!;
        const after = membersOf(plan.status);
        if (!after) throw new Error('the new status.json is not a JSON object');
        for (const [k, raw] of before) {
          if (k === 'phase' || k === 'updated_at' || k === 'transitions') continue;
          if (after.get(k) !== raw) throw new Error(`status.json field ${k} changed: ${raw} -> ${after.get(k)}`);
        }
        const regBefore = membersOf(registry)!;
        const regAfter = membersOf(plan.registry);
        if (!regAfter) throw new Error('the new registry.json is not a JSON object');
        for (const [k, raw] of regBefore) {
          if (k === key) { if (regAfter.has(k)) throw new Error(`registry key ${k} kept`); continue; }
          if (regAfter.get(k) !== raw) throw new Error(`registry.json entry ${k} changed: ${raw} -> ${regAfter.get(k)}`);
        }
      },
    }),
    prop<{ status: string; registry: string }>({
      name: 'linear-time', timing: true, arb: endGrowing, size: (i) => i.status.length + i.registry.length,
      check: ({ status, registry }) => { planEnd(status, registry, 'k', 'CANCELLED', new Date(0)); },
    }),
    prop<{ links: Array<[string, string]>; target: 'CANCELLED' | 'FAILED'; workDir: string }>({
      name: 'writes-stay-inside', size: () => 0,
      arb: fc.record({
        workDir: fc.constantFrom('.workflow/w', 'work/w'),
        links: fc.array(fc.tuple(fc.constantFrom('.workflow', '.workflow/w', '.workflow/w/status.json', '.workflow/registry.json'), fc.constantFrom('outside', 'inside')), { maxLength: 3 }),
        target: fc.constantFrom('CANCELLED' as const, 'FAILED' as const),
      }),
      check: ({ links, target, workDir }) => {
        const base = nodeFs.mkdtempSync(nodePath.join(workflowSandbox(), 'c-'));
        const root = nodePath.join(base, 'ws');
        const outside = nodePath.join(base, 'outside');
        const lay = (dir: string) => {
          nodeFs.mkdirSync(nodePath.join(dir, '.workflow', 'w'), { recursive: true });
          nodeFs.mkdirSync(nodePath.join(dir, 'work', 'w'), { recursive: true });
          nodeFs.writeFileSync(nodePath.join(dir, '.workflow', 'registry.json'), `{ "k": "${workDir}" }\n`);
          for (const w of ['.workflow/w', 'work/w']) nodeFs.writeFileSync(nodePath.join(dir, w, 'status.json'), '{ "phase": "WORK", "mode": "full" }\n');
        };
        lay(root);
        lay(outside);
        nodeFs.mkdirSync(nodePath.join(root, 'spare', 'w'), { recursive: true });
        nodeFs.writeFileSync(nodePath.join(root, 'spare', 'registry.json'), `{ "k": "${workDir}" }\n`);
        nodeFs.writeFileSync(nodePath.join(root, 'spare', 'w', 'status.json'), '{ "phase": "WORK", "mode": "full" }\n');
        for (const [rel, where] of links) {
          const at = nodePath.join(root, rel);
          const to = where === 'outside' ? nodePath.join(outside, rel) : nodePath.join(root, 'spare', rel.replace(/^\.workflow\/?/, ''));
          try { nodeFs.rmSync(at, { recursive: true, force: true }); nodeFs.symlinkSync(to, at); } catch { /* a parent is already a link */ }
        }
        const before = snapshot(outside);
        endWorkflow(nodeFileSystem, root, 'k', target, { now: new Date(0) });
        const after = snapshot(outside);
        for (const [p, bytes] of before) if (after.get(p) !== bytes) throw new Error(`a file outside the workspace was written: ${p} (links ${JSON.stringify(links)})`);
        nodeFs.rmSync(base, { recursive: true, force: true });
      },
    }),
    prop<string>({
      name: 'scan-never-throws', arb: jsonText, size: (s) => s.length,
      check: (s) => {
        const base = nodeFs.mkdtempSync(nodePath.join(workflowSandbox(), 's-'));
        nodeFs.mkdirSync(nodePath.join(base, '.workflow', 'w'), { recursive: true });
        nodeFs.writeFileSync(nodePath.join(base, '.workflow', 'registry.json'), '{ "k": ".workflow/w", "j": { "workDir": "../../.." } }');
        nodeFs.writeFileSync(nodePath.join(base, '.workflow', 'w', 'status.json'), s);
        scanWorkflows(nodeFileSystem, base);
        nodeFs.rmSync(base, { recursive: true, force: true });
      },
    }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Discovery over hostile trees (symlinks out of the workspace, to `/`, loops, FIFOs, a folder named SKILL.md)

type Node = 'skill' | 'link-root' | 'link-up' | 'link-outside' | 'link-self' | 'fifo-skill-md' | 'dir-skill-md' | 'link-skill-md-outside' | 'empty' | 'ref-link-outside';
const treeArb = fc.array(fc.tuple(fc.constantFrom<Node>('skill', 'link-root', 'link-up', 'link-outside', 'link-self', 'fifo-skill-md', 'dir-skill-md', 'link-skill-md-outside', 'empty', 'ref-link-outside'), fc.constantFrom('.claude/skills', '.agents/skills', 'pkg/.claude/skills')), { minLength: 1, maxLength: 6 });

let dSandbox: string | undefined;
function discoverySandbox(): string {
  if (dSandbox) return dSandbox;
  dSandbox = tempSandbox('skillflow-fuzz-d-');
  return dSandbox;
}

let fifoPath: string | undefined;
function fifo(): string {
  if (fifoPath) return fifoPath;
  fifoPath = nodePath.join(discoverySandbox(), 'fifo');
  execFileSync('mkfifo', [fifoPath]);
  return fifoPath;
}

const SKILL_TEXT = (name: string) => `---\nname: ${name}\ndescription: d\n---\nSee [r](references/r.md) and [o](out/x.md).\n`;

const discovery: Target = {
  name: 'discovery',
  properties: [
    prop<Array<[Node, string]>>({
      name: 'stays-inside', arb: treeArb, size: () => 0,
      check: (nodes) => {
        const base = nodeFs.mkdtempSync(nodePath.join(discoverySandbox(), 't-'));
        const ws = nodePath.join(base, 'ws');
        const outside = nodePath.join(base, 'outside');
        nodeFs.mkdirSync(nodePath.join(outside, 'other'), { recursive: true });
        nodeFs.writeFileSync(nodePath.join(outside, 'other', 'SKILL.md'), SKILL_TEXT('other'));
        nodeFs.writeFileSync(nodePath.join(outside, 'SKILL.md'), SKILL_TEXT('outside'));
        nodes.forEach(([kind, rootRel], i) => {
          const root = nodePath.join(ws, rootRel);
          nodeFs.mkdirSync(root, { recursive: true });
          const name = `s${i}`;
          const dir = nodePath.join(root, name);
          switch (kind) {
            case 'skill': case 'ref-link-outside':
              nodeFs.mkdirSync(nodePath.join(dir, 'references'), { recursive: true });
              nodeFs.writeFileSync(nodePath.join(dir, 'SKILL.md'), SKILL_TEXT(name));
              if (kind === 'ref-link-outside') nodeFs.symlinkSync(outside, nodePath.join(dir, 'out'));
              break;
            case 'link-root': nodeFs.symlinkSync('/', dir); break;
            case 'link-up': nodeFs.symlinkSync('../..', dir); break;
            case 'link-outside': nodeFs.symlinkSync(nodePath.join(outside, 'other'), dir); break;
            case 'link-self': nodeFs.symlinkSync(dir, dir); break;
            case 'fifo-skill-md':
              nodeFs.mkdirSync(dir);
              // A hard link of one FIFO made once (Node has no mkfifo).
              nodeFs.linkSync(fifo(), nodePath.join(dir, 'SKILL.md'));
              break;
            case 'dir-skill-md': nodeFs.mkdirSync(nodePath.join(dir, 'SKILL.md'), { recursive: true }); break;
            case 'link-skill-md-outside': nodeFs.mkdirSync(dir); nodeFs.symlinkSync(nodePath.join(outside, 'SKILL.md'), nodePath.join(dir, 'SKILL.md')); break;
            default: nodeFs.mkdirSync(dir);
          }
        });
        const realWs = nodeFs.realpathSync(ws);
        const res = discoverPath(nodeFileSystem, ws, { profile: 'claude-code' });
        if (!res.ok) throw new Error(`discovery failed: ${res.message}`);
        for (const s of res.discovery.skills) {
          const real = realAncestor(s.dir);
          // Claude Code follows a skill folder that is a link ("reads SKILL.md from the target directory"), so a direct
          // child link of a skills folder inside the workspace may load from outside: that one SKILL.md, never a search.
          const directLink = nodeFs.lstatSync(s.dir, { throwIfNoEntry: false })?.isSymbolicLink() === true && insideDir(realWs, realAncestor(nodePath.dirname(s.dir)))
            && nodePath.basename(nodePath.dirname(s.dir)) === 'skills';
          if (!insideDir(realWs, real) && !directLink) throw new Error(`skill found outside the workspace: ${s.dir} -> ${real}`);
          const realMd = realAncestor(s.skillMdPath);
          const unread = s.problems.length === 1 && s.problems[0].code === 'file-unreadable' && s.description === undefined;
          if (!insideDir(realWs, realMd) && !unread && !directLink) throw new Error(`SKILL.md read outside the workspace: ${s.skillMdPath} -> ${realMd}`);
          const linkedOut = nodes.some(([kind, rootRel], i) => kind === 'ref-link-outside' && s.dir === nodePath.join(ws, rootRel, `s${i}`));
          for (const p of s.problems) {
            if (linkedOut && p.code === 'reference-missing' && /^'out\//.test(p.message)) throw new Error(`a reference through a link out of the skill is reference-missing: ${p.message}`);
          }
        }
        // No crawl: every skill found is one of the folders made here (a link to `/` is never searched).
        if (res.discovery.skills.length > nodes.length) throw new Error(`${res.discovery.skills.length} skills found for ${nodes.length} folders: a link was searched`);
        // Every folder whose SKILL.md is a FIFO or a folder is reported, not silently dropped.
        nodes.forEach(([kind, rootRel], i) => {
          if (kind !== 'fifo-skill-md' && kind !== 'dir-skill-md') return;
          const dir = nodePath.join(ws, rootRel, `s${i}`);
          const entry = res.discovery.skills.find((s) => s.dir === dir);
          if (!entry || !entry.problems.some((p) => p.severity === 'error')) throw new Error(`${kind} at ${dir} was not reported`);
        });
        nodeFs.rmSync(base, { recursive: true, force: true });
      },
    }),
  ],
};

export const TARGETS: Target[] = [skillmd, output, checkpoint, workflow, discovery, cacheTarget, writesTarget(), cliOutputTarget()];

// Race a real second process against Skillflow's writers: the other process appends lines in place or replaces the
// file by rename (as an orchestrator or Claude Code does), every couple of milliseconds, while Skillflow writes answers,
// ends a workflow or edits settings.local.json. Synchronous on purpose (the fuzz suite's properties are): the child
// runs on its own; the parent stops it through a file and waits for its count.
import { spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../src/core/base/fs';
import { guardedEdit } from '../../../src/core/base/guardedWrite';
import { mergeJsonChanges } from '../../../src/core/base/jsonMerge';
import { loadCheckpoint, saveAnswers } from '../../../src/core/checkpoint/checkpoint';
import { writeSkillOverride } from '../../../src/core/claude/settingsEdit';
import { endWorkflow } from '../../../src/core/workflow/end';
import { removeTree, tempTree } from './tempTree';

export type RaceSurface = 'answers' | 'end' | 'settings';
/** `append`: lines appended in place (a JSON file is rewritten in place); `rename`: read, add, temp file, rename. */
export type RaceMode = 'append' | 'rename';

const CHILD = String.raw`
const fs = require('fs');
const [file, mode, kind, stop] = process.argv.slice(1);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let i = 0;
fs.writeFileSync(stop + '.ready', '');
while (!fs.existsSync(stop)) {
  const line = 'L' + i;
  try {
    if (kind === 'lines' && mode === 'append') fs.appendFileSync(file, line + '\n');
    else {
      const text = fs.readFileSync(file, 'utf8');
      let out;
      if (kind === 'lines') out = text + line + '\n';
      else { const o = JSON.parse(text); o.events = (o.events || []).concat(line); out = JSON.stringify(o, null, 2) + '\n'; }
      if (mode === 'append') fs.writeFileSync(file, out);
      else { const tmp = file + '.other-' + i; fs.writeFileSync(tmp, out); fs.renameSync(tmp, file); }
    }
    i++;
  } catch { /* a file mid-write by the other side: try again */ }
  sleep(1 + (i % 3));
}
fs.writeFileSync(stop + '.count', String(i));
`;

const CONTEXT = `---\nskill: code-review\nstatus: AWAIT\n---\n# Checkpoint: code-review\n\n## Progress Summary\nPaused.\n\n## Questions\n\n### Q1: Which branch?\nType: single\nOptions:\n- main\n- develop\nAnswer:\n\n## Log\n`;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function waitFor(file: string, ms: number): void {
  const until = Date.now() + ms;
  while (!nodeFs.existsSync(file)) {
    if (Date.now() > until) throw new Error(`the racing process did not answer (${file})`);
    sleep(1);
  }
}

export interface RaceResult {
  /** Lines (or events) the other process wrote. */
  written: number;
  /** Those missing from the file at the end. */
  lost: string[];
  /** Our writes that reported success / failure. */
  ok: number;
  failed: string[];
  /** Files left next to the written one (temp files, saved versions). */
  left: string[];
}

/** Runs `edits` Skillflow writes of `surface` against a second process in `mode`; returns what was lost. */
export function race(surface: RaceSurface, mode: RaceMode, edits: number): RaceResult {
  const root = tempTree(
    surface === 'answers' ? { '.agent/tmp/r-context.md': CONTEXT }
      : surface === 'end' ? { '.workflow/registry.json': '{\n  "k": "wd"\n}\n', 'wd/status.json': '{\n  "phase": "PLAN",\n  "mode": "full",\n  "transitions": []\n}\n' }
        : { '.claude/settings.local.json': '{\n  "permissions": {}\n}\n' },
  );
  const file = nodePath.join(root, surface === 'answers' ? '.agent/tmp/r-context.md' : surface === 'end' ? 'wd/status.json' : '.claude/settings.local.json');
  const stop = nodePath.join(root, 'stop');
  const child = spawn(process.execPath, ['-e', CHILD, file, mode, surface === 'answers' ? 'lines' : 'json', stop], { stdio: 'ignore' });
  let ok = 0;
  const failed: string[] = [];
  try {
    waitFor(`${stop}.ready`, 20_000);
    let cp = surface === 'answers' ? loadCheckpoint(nodeFileSystem, root, '.agent/tmp/r-context.md') : undefined;
    for (let n = 0; n < edits; n++) {
      let result: { ok: boolean; message?: string };
      if (surface === 'answers') {
        if (!cp?.ok) throw new Error(`load failed: ${cp && !cp.ok ? cp.message : ''}`);
        const saved = saveAnswers(nodeFileSystem, cp.checkpoint, { Q1: n % 2 ? 'main' : 'develop' });
        if (saved.ok) cp = { ok: true, checkpoint: saved.checkpoint };
        else cp = loadCheckpoint(nodeFileSystem, root, '.agent/tmp/r-context.md');
        result = saved;
      } else if (surface === 'end') {
        result = endWorkflow(nodeFileSystem, root, 'k', 'CANCELLED');
        // Back to PLAN and registered again, through the same guarded edit (the other process keeps writing).
        const reset = (p: string, f: (o: Record<string, unknown>) => void) => {
          let r: ReturnType<typeof guardedEdit> = { ok: false, message: 'not tried', written: false };
          for (let t = 0; t < 50 && !r.ok; t++) {
            r = guardedEdit(p, (b) => {
              try { const o = JSON.parse(b!.toString('utf8')) as Record<string, unknown>; f(o); return { ok: true, data: Buffer.from(JSON.stringify(o, null, 2) + '\n') }; } catch (e) { return { ok: false, message: String(e) }; }
            }, { root, merge: mergeJsonChanges });
          }
          return r;
        };
        const a = reset(file, (o) => { o.phase = 'PLAN'; });
        const b = reset(nodePath.join(root, '.workflow/registry.json'), (o) => { o.k = 'wd'; });
        if (!a.ok || !b.ok) throw new Error(`reset failed: ${!a.ok ? a.message : ''} ${!b.ok ? b.message : ''}`);
      } else {
        result = writeSkillOverride(nodeFileSystem, root, file, 'review', n % 2 ? 'off' : 'name-only');
      }
      if (result.ok) ok++;
      else failed.push(result.message ?? '');
      sleep(n % 3);
    }
  } finally {
    nodeFs.writeFileSync(stop, '');
    try { waitFor(`${stop}.count`, 20_000); } finally { if (child.exitCode === null) child.kill(); }
  }
  const written = Number(nodeFs.readFileSync(`${stop}.count`, 'utf8'));
  const text = nodeFs.readFileSync(file, 'utf8');
  const have = new Set(surface === 'answers' ? text.split('\n') : (JSON.parse(text) as { events?: string[] }).events ?? []);
  const lost: string[] = [];
  for (let i = 0; i < written; i++) if (!have.has(`L${i}`)) lost.push(`L${i}`);
  const left = nodeFs.readdirSync(nodePath.dirname(file)).filter((n) => n.includes('.skillflow-'));
  removeTree(root);
  return { written, lost, ok, failed, left };
}

// The guarded writes (src/core/base/guardedWrite.ts): a crash or a failure at any step of a write, and a real second
// process writing the same file.
import * as fc from 'fast-check';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as nodePath from 'node:path';
import { guardedEdit } from '../../src/core/base/guardedWrite';
import { cleanOutput, escapeControls } from '../../src/cli/output/clean';
import { formatGithub } from '../../src/cli/output/github';
import { problemText } from '../../src/cli/output/problems';
import { outputViolation } from '../unit/helpers/outputCheck';
import { failingAt } from '../unit/helpers/faults';
import { race, type RaceMode, type RaceSurface } from '../unit/helpers/race';
import type { Property, Target } from './targets';

function prop<T>(p: Property<T>): Property {
  return p as unknown as Property;
}

let sandbox: string | undefined;
function dir(): string {
  if (!sandbox) {
    const parent = nodeFs.existsSync('/dev/shm') ? '/dev/shm' : nodeFs.realpathSync(nodeOs.tmpdir());
    sandbox = nodeFs.realpathSync(nodeFs.mkdtempSync(nodePath.join(parent, 'skillflow-writes-')));
    process.on('exit', () => nodeFs.rmSync(sandbox!, { recursive: true, force: true }));
  }
  return sandbox;
}

interface Crash { k: number; code: 'ENOSPC' | 'EIO' | 'KILL' | 'EACCES'; old: Uint8Array; edit: Uint8Array }

/** Text as hostile as a file name or a SKILL.md value can be: controls, line breaks, workflow commands. */
const hostile = fc.array(fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\n', '\r\n', '\r', '::', '\n::error file=x::y', '\u001b]52;c;eA==\u0007', '%0A', ' ::warning ::', '\t::'),
), { maxLength: 12 }).map((a) => a.join(''));

export function cliOutputTarget(): Target {
  return {
    name: 'cli-output',
    properties: [
      prop<{ path: string; code: string; message: string }>({
        name: 'no-controls-no-commands',
        arb: fc.record({ path: hostile, code: hostile, message: hostile }),
        size: (i) => i.path.length + i.code.length + i.message.length,
        check: ({ path, code, message }) => {
          const problem = { code, severity: 'error' as const, message, line: 1, column: 1, endLine: 1, endColumn: 2 };
          // Text: the problem line and the raw values as any human-readable writer might print them.
          const text = cleanOutput(`${problemText(path, problem)}\n${path}\n${message}\n`);
          const t = outputViolation(text, 'text');
          if (t) throw new Error(`text: ${t}`);
          const gh = escapeControls(formatGithub({ skills: [{ path, name: code, scope: 'project', problems: [problem] }], agents: [], summary: { skills: 1, errors: 1, warnings: 0, infos: 0, agents: 0 } }));
          const g = outputViolation(gh, 'github');
          if (g) throw new Error(`github: ${g}`);
          const json = cleanOutput(JSON.stringify({ path, code, message }, null, 2));
          if (outputViolation(json, 'json')) throw new Error(`json: ${outputViolation(json, 'json')}`);
          const back = JSON.parse(json) as { path: string };
          if (back.path !== path) throw new Error('json: a value changed');
        },
      }),
    ],
  };
}

export function writesTarget(): Target {
  return {
    name: 'writes',
    properties: [
      prop<Crash>({
        name: 'crash-injection',
        arb: fc.record({
          k: fc.integer({ min: 1, max: 40 }),
          code: fc.constantFrom('ENOSPC' as const, 'EIO' as const, 'KILL' as const, 'EACCES' as const),
          old: fc.uint8Array({ maxLength: 300 }),
          edit: fc.uint8Array({ minLength: 1, maxLength: 300 }),
        }),
        size: (i) => i.old.length + i.edit.length,
        check: ({ k, code, old, edit }) => {
          const root = nodeFs.mkdtempSync(nodePath.join(dir(), 'c-'));
          const file = nodePath.join(root, 'f');
          const oldBytes = Buffer.from(old);
          const newBytes = Buffer.concat([Buffer.from(edit), oldBytes]);
          nodeFs.writeFileSync(file, oldBytes);
          const apply = (b: Buffer | undefined) => ({ ok: true as const, data: b!.equals(oldBytes) ? newBytes : b! });
          const r = guardedEdit(file, apply, { root, sys: failingAt(k, code) });
          const now = nodeFs.readFileSync(file);
          if (!now.equals(oldBytes) && !now.equals(newBytes)) throw new Error(`${code} at step ${k}: neither the old nor the new content`);
          if (r.ok && !now.equals(newBytes)) throw new Error(`${code} at step ${k}: reported written, but the old content is there`);
          if (!r.ok && r.written === false && !now.equals(oldBytes)) throw new Error(`${code} at step ${k}: reported not written, but the new content is there`);
          if (code !== 'KILL' && nodeFs.readdirSync(root).length !== 1) throw new Error(`${code} at step ${k}: a temp file was left: ${nodeFs.readdirSync(root).join(', ')}`);
          const again = guardedEdit(file, apply, { root });
          if (!again.ok) throw new Error(`the retry failed: ${again.message}`);
          if (!nodeFs.readFileSync(file).equals(newBytes)) throw new Error('the retry did not complete the write');
          if (nodeFs.readdirSync(root).length !== 1) throw new Error(`after the retry, a temp file is left: ${nodeFs.readdirSync(root).join(', ')}`);
          nodeFs.rmSync(root, { recursive: true, force: true });
        },
      }),
      prop<{ surface: RaceSurface; mode: RaceMode }>({
        name: 'race',
        untimed: true,
        arb: fc.record({ surface: fc.constantFrom('answers' as const, 'end' as const, 'settings' as const), mode: fc.constantFrom('append' as const, 'rename' as const) }),
        size: () => 0,
        check: ({ surface, mode }) => {
          const r = race(surface, mode, 12);
          if (r.lost.length) throw new Error(`${r.lost.length} of ${r.written} lines lost (${surface}, ${mode}): ${r.lost.slice(0, 5).join(', ')}`);
          if (r.left.length) throw new Error(`left next to the file: ${r.left.join(', ')}`);
        },
      }),
    ],
  };
}

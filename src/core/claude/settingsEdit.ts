/**
 * Format-preserving edits of a Claude Code settings file (`.claude/settings.local.json`): set or remove one
 * `skillOverrides` entry and keep every other byte. Claude Code reads these files with a strict JSON parser, so a
 * file that is not strict JSON (half-written, comments, trailing commas) is refused, never rewritten.
 */
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { SkillOverride } from './values';
import * as path from 'node:path';
import { detectFormatting } from '../base/jsonFormat';
import type { FileSystem } from '../base/fs';
import { editThrough, type GuardedEditResult, resolveWriteTarget } from '../base/guardedWrite';
import { mergeJsonChanges } from '../base/jsonMerge';

export type SettingsEditResult = { ok: true; text: string; changed: boolean } | { ok: false; message: string };

/** 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) { line++; start = i + 1; }
  return { line, column: offset - start + 1 };
}

/**
 * Sets `skillOverrides[name]` to `state` (or removes it when `state` is undefined) in the text of a settings file;
 * `text` undefined (or only whitespace) means the file does not exist yet. Refuses a text that is not a strict
 * JSON object, or whose `skillOverrides` is not an object, with a message naming the place.
 */
export function setSkillOverride(text: string | undefined, name: string, state: SkillOverride | undefined): SettingsEditResult {
  if (text === undefined || !text.trim()) {
    if (state === undefined) return { ok: true, text: text ?? '', changed: false };
    return { ok: true, text: `${JSON.stringify({ skillOverrides: { [name]: state } }, null, 2)}\n`, changed: true };
  }
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const body = bom ? text.slice(1) : text;
  const errors: ParseError[] = [];
  let data: unknown;
  try {
    data = parse(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    // The parser recurses once per level: thousands of nested arrays or objects overflow the stack.
    return { ok: false, message: 'the file is nested too deeply to be read; Skillflow does not rewrite it' };
  }
  if (errors.length) {
    const e = errors[0];
    const at = lineColumn(body, e.offset);
    return { ok: false, message: `the file is not valid JSON (${printParseErrorCode(e.error)} at line ${at.line}, column ${at.column}); Claude Code ignores it. Fix or delete it, then try again: Skillflow does not rewrite a file it cannot read` };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, message: 'the file is not a JSON object; Skillflow does not rewrite it' };
  }
  const overrides = (data as Record<string, unknown>).skillOverrides;
  if (overrides !== undefined && (!overrides || typeof overrides !== 'object' || Array.isArray(overrides))) {
    return { ok: false, message: '`skillOverrides` in the file is not an object; Skillflow does not rewrite it' };
  }
  const current = (overrides as Record<string, unknown> | undefined)?.[name];
  if (current === state) return { ok: true, text, changed: false };
  const edits = modify(body, ['skillOverrides', name], state, { formattingOptions: detectFormatting(body) });
  let next = applyEdits(body, edits);
  // An emptied `skillOverrides` goes too, so undoing the last override leaves the file as it was before.
  if (state === undefined) {
    const after = parse(next) as Record<string, unknown>;
    const left = after.skillOverrides;
    if (left && typeof left === 'object' && !Array.isArray(left) && Object.keys(left).length === 0) {
      next = applyEdits(next, modify(next, ['skillOverrides'], undefined, { formattingOptions: detectFormatting(next) }));
    }
  }
  return { ok: true, text: bom + next, changed: true };
}

/**
 * Sets (or, with `state` undefined, removes) the `skillOverrides` entry in the settings file on disk as a guarded edit
 * (guardedWrite.ts): Claude Code's own writes to the file meanwhile are kept, the file's real path must stay inside
 * `root` (a `.claude` that links out of the workspace is refused), a file that is not UTF-8 is refused.
 */
export function writeSkillOverride(fs: FileSystem, root: string, file: string, name: string, state: SkillOverride | undefined): GuardedEditResult {
  // The folder is made only when its real path stays inside root (a dangling `.claude` link would be followed).
  const dir = path.dirname(file);
  if (!fs.lstat(dir)) {
    const parent = resolveWriteTarget(path.dirname(dir), root);
    if (!parent.ok) return { ok: false, message: parent.message, written: false };
    try { fs.mkdirp(dir); } catch (e) { return { ok: false, message: `cannot create ${dir}: ${(e as Error).message}`, written: false }; }
  }
  return editThrough(fs, file, (bytes) => {
    const text = bytes?.toString('utf8');
    // An empty file is what an in-place writer leaves for an instant; Claude Code ignores one: refused, not filled.
    if (bytes && !bytes.length) return { ok: false, message: 'the file is empty (Claude Code ignores it); add {} to it or delete it, nothing was written' };
    if (bytes && !Buffer.from(text!, 'utf8').equals(bytes)) return { ok: false, message: 'the file is not UTF-8 text; Skillflow does not edit it, nothing was written' };
    const result = setSkillOverride(text, name, state);
    return result.ok ? { ok: true, data: Buffer.from(result.text, 'utf8') } : result;
  }, {
    root,
    create: true,
    merge: mergeJsonChanges,
    landed: (back) => {
      const again = setSkillOverride(back.toString('utf8'), name, state);
      return again.ok && !again.changed;
    },
  });
}

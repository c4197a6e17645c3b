/**
 * Loading, validating and answering a checkpoint context file through the injected FileSystem.
 * Shared by the CLI (`skillflow checkpoint`) and the extension's Answer flow. Never throws.
 */
import type { FileSystem } from '../base/fs';
import { applyAnswers, normaliseAnswer, type ParsedContext, parseContextFile, unansweredQuestions } from './context';
import { checkAnswer } from './answers';
import { resolveContextPath } from './paths';
import { type ResumeInvocation, resumeInvocation } from './resume';

/** The protocol's messages, verbatim, plus Skillflow's own. */
export const CHECKPOINT_MESSAGES = {
  notFound: 'Context file not found',
  notAnswered: 'Questions not answered',
  invalid: 'Invalid context format',
  changed: 'Context file changed on disk since it was loaded; nothing was written',
} as const;

/** `Context file has unanswered questions: Q1, Q3` (the protocol's wording). */
export function unansweredMessage(ids: readonly string[]): string {
  return ids.length ? `Context file has unanswered questions: ${ids.join(', ')}` : CHECKPOINT_MESSAGES.notAnswered;
}

/** A context file larger than this is not a checkpoint (and is not read whole into memory). */
export const MAX_CONTEXT_BYTES = 1024 * 1024;

export interface LoadedCheckpoint {
  workspaceFolder: string;
  absPath: string;
  /** The file actually read and written (symlinks resolved; known to be inside the workspace). */
  realPath: string;
  relPath: string;
  /** The bytes as loaded: a write goes ahead only if the file still holds exactly these. */
  bytes: Buffer;
  text: string;
  parsed: ParsedContext;
}

export type Result<T> = ({ ok: true } & T) | { ok: false; message: string };

/** Reads and parses a context file; refuses paths outside `workspaceFolder`. Only a missing file or an unsafe path fail here. */
export function loadCheckpoint(fs: FileSystem, workspaceFolder: string, contextPath: string): Result<{ checkpoint: LoadedCheckpoint }> {
  const resolved = resolveContextPath(fs, workspaceFolder, contextPath);
  if (!resolved.ok) return resolved;
  const st = resolved.exists ? fs.stat(resolved.realPath) : undefined;
  if (!st || !st.isFile) return { ok: false, message: CHECKPOINT_MESSAGES.notFound };
  if (st.size > MAX_CONTEXT_BYTES) return { ok: false, message: CHECKPOINT_MESSAGES.invalid };
  let bytes: Buffer;
  try {
    bytes = fs.readFile(resolved.realPath);
  } catch {
    return { ok: false, message: CHECKPOINT_MESSAGES.notFound };
  }
  const text = bytes.toString('utf8');
  return {
    ok: true,
    checkpoint: { workspaceFolder, absPath: resolved.absPath, realPath: resolved.realPath, relPath: resolved.relPath, bytes, text, parsed: parseContextFile(text) },
  };
}

/** Reads the same file again (after it changed on disk), by the absolute path it was loaded from; the same checks apply. */
export function reloadCheckpoint(fs: FileSystem, checkpoint: LoadedCheckpoint): Result<{ checkpoint: LoadedCheckpoint }> {
  return loadCheckpoint(fs, checkpoint.workspaceFolder, checkpoint.absPath);
}

/** True when the bytes decode to UTF-8 and back unchanged, so a text edit keeps every other byte. */
function isExactUtf8(bytes: Buffer, text: string): boolean {
  return Buffer.from(text, 'utf8').equals(bytes);
}

/** The protocol's `update` check: valid format and every question answered; returns the resume invocation. */
export function validateCheckpoint(checkpoint: LoadedCheckpoint): Result<{ invocation: ResumeInvocation }> {
  const { parsed } = checkpoint;
  if (!parsed.valid || !parsed.skill) return { ok: false, message: CHECKPOINT_MESSAGES.invalid };
  const missing = unansweredQuestions(parsed);
  if (missing.length) return { ok: false, message: unansweredMessage(missing) };
  return { ok: true, invocation: resumeInvocation(parsed.skill, checkpoint.relPath) };
}

/** Checks every answer (unknown ids, options, yes/no) and returns the values to write, keyed by question id. */
export function checkAnswers(parsed: ParsedContext, answers: Readonly<Record<string, string>>): Result<{ values: Record<string, string> }> {
  if (!parsed.valid) return { ok: false, message: CHECKPOINT_MESSAGES.invalid };
  const values: Record<string, string> = {};
  for (const [rawId, answer] of Object.entries(answers)) {
    const id = rawId.trim().toUpperCase();
    const question = parsed.questions.find((q) => q.id === id);
    if (!question) return { ok: false, message: `Unknown question: ${rawId.slice(0, 40)} (the file has ${parsed.questions.map((q) => q.id).join(', ')})` };
    const checked = checkAnswer(question, answer);
    if (!checked.ok) return checked;
    values[id] = checked.value;
  }
  return { ok: true, values };
}

/**
 * Writes `answers` into the loaded file's Answer fields and nothing else, atomically, and only if the
 * file on disk still holds the bytes it was loaded from. Returns the reloaded checkpoint.
 * `changed: true` marks the refusal because the file changed on disk.
 */
export function saveAnswers(fs: FileSystem, checkpoint: LoadedCheckpoint, answers: Readonly<Record<string, string>>): Result<{ checkpoint: LoadedCheckpoint }> | { ok: false; message: string; changed: true } {
  const checked = checkAnswers(checkpoint.parsed, answers);
  if (!checked.ok) return checked;
  if (!isExactUtf8(checkpoint.bytes, checkpoint.text)) return { ok: false, message: `${CHECKPOINT_MESSAGES.invalid}: the file is not UTF-8 text` };
  // Re-resolve: the path may have been swapped for a symlink since it was loaded.
  const again = resolveContextPath(fs, checkpoint.workspaceFolder, checkpoint.absPath);
  if (!again.ok) return again;
  if (!again.exists) return { ok: false, message: CHECKPOINT_MESSAGES.notFound };
  let current: Buffer;
  try {
    current = fs.readFile(again.realPath);
  } catch {
    return { ok: false, message: CHECKPOINT_MESSAGES.notFound };
  }
  if (again.realPath !== checkpoint.realPath || !current.equals(checkpoint.bytes)) return { ok: false, message: CHECKPOINT_MESSAGES.changed, changed: true };
  const text = applyAnswers(checkpoint.text, checkpoint.parsed, checked.values);
  const reparsed = parseContextFile(text);
  // Belt and braces: the same questions, every answer reads back exactly as written, and nothing else changes.
  if (reparsed.questions.map((q) => q.id).join(',') !== checkpoint.parsed.questions.map((q) => q.id).join(',')) {
    return { ok: false, message: 'Writing the answers would change the set of questions; nothing was written' };
  }
  for (const q of checkpoint.parsed.questions) {
    const now = reparsed.questions.find((r) => r.id === q.id);
    const expected = Object.prototype.hasOwnProperty.call(checked.values, q.id) ? normaliseAnswer(checked.values[q.id]) : q.answer;
    if (!now || now.answer !== expected) return { ok: false, message: `Could not write the answer to ${q.id} so that it reads back unchanged; nothing was written` };
  }
  const bytes = Buffer.from(text, 'utf8');
  try {
    fs.writeFileAtomic(again.realPath, bytes);
  } catch (e) {
    return { ok: false, message: `Could not write the context file: ${String((e as Error)?.message ?? e)}` };
  }
  return { ok: true, checkpoint: { ...checkpoint, bytes, text, parsed: reparsed } };
}

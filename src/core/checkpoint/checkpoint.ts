/**
 * Loading, validating and answering a checkpoint context file through the injected FileSystem.
 * Shared by the CLI (`skillflow checkpoint`) and the extension's Answer flow. Never throws.
 */
import type { FileSystem } from '../base/fs';
import { editThrough, type EditOutcome, MAX_EDIT_BYTES } from '../base/guardedWrite';
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
/** The one size limit of files Skillflow reads and edits (guardedWrite.ts). */
export const MAX_CONTEXT_BYTES = MAX_EDIT_BYTES;

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

/** The questions as the user saw them: ids, wording, type and options (answers aside). */
function questionShape(parsed: ParsedContext): string {
  return JSON.stringify(parsed.questions.map((q) => [q.id, q.text, q.type, q.options]));
}

/**
 * Writes `answers` into the Answer fields of the file on disk and nothing else (guardedWrite.ts: lines another
 * program adds meanwhile are kept, the answers are read back). Refused, with `changed: true`, when the questions or
 * the answers being replaced are no longer what the user saw when it was loaded. Returns the reloaded checkpoint.
 */
export function saveAnswers(fs: FileSystem, checkpoint: LoadedCheckpoint, answers: Readonly<Record<string, string>>): Result<{ checkpoint: LoadedCheckpoint }> | { ok: false; message: string; changed: true } {
  const checked = checkAnswers(checkpoint.parsed, answers);
  if (!checked.ok) return checked;
  if (!isExactUtf8(checkpoint.bytes, checkpoint.text)) return { ok: false, message: `${CHECKPOINT_MESSAGES.invalid}: the file is not UTF-8 text` };
  // Re-resolve: the path may have been swapped for a symlink since it was loaded.
  const again = resolveContextPath(fs, checkpoint.workspaceFolder, checkpoint.absPath);
  if (!again.ok) return again;
  if (!again.exists) return { ok: false, message: CHECKPOINT_MESSAGES.notFound };
  if (again.realPath !== checkpoint.realPath) return { ok: false, message: CHECKPOINT_MESSAGES.changed, changed: true };
  const shape = questionShape(checkpoint.parsed);
  const expected = (q: ParsedContext['questions'][number]) => Object.prototype.hasOwnProperty.call(checked.values, q.id) ? normaliseAnswer(checked.values[q.id]) : undefined;
  let result: { text: string; parsed: ParsedContext } | undefined;
  const edit = (current: Buffer | undefined): EditOutcome => {
    if (!current) return { ok: false, message: CHECKPOINT_MESSAGES.notFound };
    const text = current.toString('utf8');
    if (!isExactUtf8(current, text)) return { ok: false, message: `${CHECKPOINT_MESSAGES.invalid}: the file is not UTF-8 text; nothing was written` };
    // A NUL byte hides a line from every Markdown reader but not from the model: an answer could swallow it.
    if (text.includes('\0')) return { ok: false, message: `${CHECKPOINT_MESSAGES.invalid}: the file contains NUL characters; nothing was written` };
    const parsed = parseContextFile(text);
    if (!parsed.valid || questionShape(parsed) !== shape) return { ok: false, message: CHECKPOINT_MESSAGES.changed };
    for (const q of parsed.questions) {
      const before = checkpoint.parsed.questions.find((r) => r.id === q.id);
      if (expected(q) !== undefined && q.answer !== before?.answer && q.answer !== expected(q)) return { ok: false, message: CHECKPOINT_MESSAGES.changed };
    }
    const out = applyAnswers(text, parsed, checked.values);
    const reparsed = parseContextFile(out);
    // Belt and braces: the same questions, every answer reads back exactly as written, and nothing else changes.
    if (questionShape(reparsed) !== shape) return { ok: false, message: 'Writing the answers would change the set of questions; nothing was written' };
    for (const q of parsed.questions) {
      const now = reparsed.questions.find((r) => r.id === q.id);
      if (!now || now.answer !== (expected(q) ?? q.answer)) return { ok: false, message: `Could not write the answer to ${q.id} so that it reads back unchanged; nothing was written` };
    }
    result = { text: out, parsed: reparsed };
    return { ok: true, data: Buffer.from(out, 'utf8') };
  };
  const landed = (back: Buffer): boolean => {
    const parsed = parseContextFile(back.toString('utf8'));
    return checkpoint.parsed.questions.every((q) => expected(q) === undefined || parsed.questions.find((r) => r.id === q.id)?.answer === expected(q));
  };
  const written = editThrough(fs, again.realPath, edit, { root: checkpoint.workspaceFolder, landed });
  if (!written.ok) {
    if (written.message === CHECKPOINT_MESSAGES.changed) return { ok: false, message: CHECKPOINT_MESSAGES.changed, changed: true };
    return { ok: false, message: written.message.startsWith(CHECKPOINT_MESSAGES.invalid) || written.message.startsWith('Could not') || written.message.startsWith('Writing') || written.message === CHECKPOINT_MESSAGES.notFound ? written.message : `Could not write the context file: ${written.message}` };
  }
  const text = written.data.toString('utf8');
  const parsed = result && result.text === text ? result.parsed : parseContextFile(text);
  return { ok: true, checkpoint: { ...checkpoint, bytes: written.data, text, parsed } };
}

/**
 * The last step of every CLI output: no control character from a file's content or name reaches the terminal (an
 * ESC sequence can retitle the window, write the clipboard through OSC 52 or clear the screen) and no line of a
 * human-readable output can start a GitHub Actions workflow command (`::error …::`), whatever a folder name holds.
 * Line feeds and tabs pass (the outputs' own); every other C0 control, DEL and every C1 control is shown as `\u001b`.
 * The JSON formats stay valid JSON: these characters only occur inside strings, where `\u001b` is their escape.
 */
import { showControlChars } from '../../core/base/shell';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** `text` with every control character but line feed and tab shown escaped. */
export function escapeControls(text: string): string {
  // (a report of thousands of skills usually has none: one scan that stops at the first)
  return ANY_CONTROL.test(text) ? text.replace(CONTROL, (c) => showControlChars(c)) : text;
}

/** escapeControls, and a line that would start a workflow command has its `::` shown as `\:\:`. */
export function cleanOutput(text: string): string {
  const escaped = escapeControls(text);
  return escaped.includes('::') ? escaped.replace(/^([ \t]*)::/gm, '$1\\:\\:') : escaped;
}

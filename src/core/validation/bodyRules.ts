/** The body rules over one SKILL.md (`body-lines`, `body-tokens`) and the body as they see it (BodyView). */
import type { Range } from '../base/types';
import type { Emit } from '../base/rules';
import { LineIndex, tokensForLength } from '../base/text';
import type { DetailedParse } from '../skillmd/frontmatter';

export const BODY_MAX_LINES = 500;
export const BODY_MAX_TOKENS = 5000;

/**
 * The body as the body rules see it: the lines `first`… of `lines` are the body, whose first line is file line
 * `parsed.bodyStartLine`; `length` is its length in UTF-16 units (or, when that is at most BODY_MAX_TOKENS * 4,
 * any number up to BODY_MAX_TOKENS * 4: the token rule then cannot fire); `lastChar` is its last character code
 * (a final line break opens no line).
 */
export interface BodyView {
  lines: LineIndex;
  first: number;
  length: number;
  lastChar: number;
}

/** The body of a text parse as a BodyView: a view of the file's line index when the body is its tail, else its own index. */
export function stringBody(detail: DetailedParse): BodyView | undefined {
  const { body } = detail.parsed;
  if (body === '') return undefined;
  const first = bodyFirstLine(detail);
  return { lines: first === undefined ? new LineIndex(body) : detail.lines, first: first ?? 0, length: body.length, lastChar: body.charCodeAt(body.length - 1) };
}

/**
 * The 0-based line of the file's line index where the (non-empty) body starts: the parser's body is always the
 * text from line bodyStartLine on (checked by length); undefined otherwise (then the body gets its own index).
 */
function bodyFirstLine(detail: DetailedParse): number | undefined {
  const { body, bodyStartLine } = detail.parsed;
  const i = bodyStartLine - 1;
  if (body === '' || i < 0 || i >= detail.lines.lineCount) return undefined;
  const start = detail.lines.starts[i];
  return detail.lines.text.length - start === body.length ? i : undefined;
}

/**
 * The length rules of a body. `command`: a command file's (`.claude/commands/x.md`), which has no folder of its own for
 * references/ files: the advice is to make it a skill first.
 */
export function checkBody(body: BodyView, bodyStartLine: number, emit: Emit, command?: boolean): void {
  const { lines, first } = body;
  const advice = command ? 'Make it a skill (a folder with SKILL.md) and move detail into references/ files' : 'Move detail into references/ files';
  const lineCount = lines.lineCount - first;
  // Range of body line `k` (0-based), on its file line.
  const rangeOf = (k: number): Range => {
    const r = lines.lineRange(first + k);
    return { ...r, line: bodyStartLine + k, endLine: bodyStartLine + k };
  };
  const count = lineCount - (body.lastChar === 10 || body.lastChar === 13 ? 1 : 0); // a final line break opens no line
  if (count > BODY_MAX_LINES) {
    emit('body-lines', rangeOf(BODY_MAX_LINES),
      `${advice}: the body has ${count} lines, over the recommended ${BODY_MAX_LINES} (this is line ${BODY_MAX_LINES + 1} of the body)`);
  }
  const tokens = tokensForLength(body.length);
  if (tokens > BODY_MAX_TOKENS) {
    let blank = 0;
    while (blank < lineCount - 1 && lines.lineText(first + blank).trim() === '') blank++;
    emit('body-tokens', rangeOf(blank),
      `${advice}: the body is about ${tokens} tokens (characters / 4), over the recommended ${BODY_MAX_TOKENS}`);
  }
}


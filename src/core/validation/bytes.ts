/**
 * validateSkillMdBytes: the fast path for a SKILL.md read from disk (bulk discovery). Only the frontmatter is decoded;
 * the body is searched as bytes and decoded only where a rule needs it.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import type { FileSystem } from '../base/fs';
import type { Problem } from '../base/types';
import { utf16Length, Utf8LineIndex } from '../base/text';
import { FENCE, parseSkillMdDetailed } from '../skillmd/frontmatter';
import type { ParsedSkillMd, SkillReference, ValidationContext } from '../skillmd/model';
import { BODY_MAX_TOKENS, type BodyView } from './bodyRules';
import type { SkillMention } from './mentions';
import { type SkillMdValidation, validateParsed, validateSkillMd } from './validateSkill';

/**
 * Like `validateSkillMd` on `bytes.toString('utf8')`, with the same result, plus the decoded text's length
 * (counted on first read). Faster
 * for a file read from disk: only the frontmatter is decoded; the body is searched as bytes (a Utf8LineIndex) and
 * only the lines that matter are decoded. Pure-ASCII files, files that are not valid UTF-8 and unusual shapes (BOM,
 * no or unclosed frontmatter) are decoded whole and validated as text. Never throws.
 */
export function validateSkillMdBytes(bytes: Buffer, ctx: ValidationContext, fs: FileSystem): SkillMdValidation & { textLength: number } {
  const ascii = isAscii(bytes);
  const whole = () => {
    // latin1 decodes ASCII exactly, and faster.
    const text = bytes.toString(ascii ? 'latin1' : 'utf8');
    const r = validateSkillMd(text, ctx, fs);
    return { parsed: r.parsed, problems: r.problems, references: r.references, mentions: r.mentions, textLength: text.length };
  };
  // The first byte of a BOM is not ASCII either: a BOM file takes the text path (the parser reports the BOM).
  if (ascii || bytes.length === 0 || bytes[0] !== 0x2d || !isUtf8(bytes)) return whole();
  const lines = new Utf8LineIndex(bytes);
  if (!FENCE.test(lines.lineText(0))) return whole();
  let close = -1;
  for (let i = 1; i < lines.lineCount; i++) {
    // Fence lines are ASCII: the raw bytes of a line are its text whenever the test can succeed.
    if (FENCE.test(lines.text.slice(lines.starts[i], lines.lineEnd(i)))) { close = i; break; }
  }
  if (close < 0 || close + 1 >= lines.lineCount) return whole();
  const bodyStart = lines.starts[close + 1];
  const head = bytes.toString('utf8', 0, bodyStart);
  const detail = parseSkillMdDetailed(head);
  const { parsed } = detail;
  // The head parses as the file's frontmatter with an empty body; anything else (never seen) takes the text path.
  if (!parsed.frontmatterClosed || parsed.bodyStartLine !== close + 2 || parsed.body !== '') return whole();
  detail.parsed = new BytesSkillMd(parsed, bytes, bodyStart);
  let view: BodyView | undefined;
  if (bodyStart < bytes.length) {
    // The body's UTF-16 length is needed only when it may be over the token limit (it is at most its byte length).
    const bodyBytes = bytes.length - bodyStart;
    const bodyLength = bodyBytes <= BODY_MAX_TOKENS * 4 ? bodyBytes : utf16Length(bytes.subarray(bodyStart));
    view = { lines, first: close + 1, length: bodyLength, lastChar: bytes[bytes.length - 1] };
  }
  return new BytesValidation(validateParsed(detail, view, ctx, fs), bytes);
}

/**
 * The parse of a SKILL.md read as bytes: `body` is decoded on first read (a bulk run never reads it). A class with
 * an accessor on its prototype: every instance has one shape (a per-object accessor costs each file a slow define).
 */
// (Its fields are ParsedSkillMd's, declared once there; the constructor sets each of them.)
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
interface BytesSkillMd extends Omit<ParsedSkillMd, 'body'> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
class BytesSkillMd implements ParsedSkillMd {
  private decoded: string | undefined = undefined;

  constructor(head: ParsedSkillMd, private bytes: Buffer | undefined, private readonly bodyStart: number) {
    this.hasBom = head.hasBom;
    this.hasFrontmatter = head.hasFrontmatter;
    this.frontmatterClosed = head.frontmatterClosed;
    this.data = head.data;
    this.keys = head.keys;
    this.frontmatterStartLine = head.frontmatterStartLine;
    this.bodyStartLine = head.bodyStartLine;
    this.problems = head.problems;
  }

  get body(): string {
    if (this.decoded === undefined) {
      this.decoded = this.bytes ? this.bytes.toString('utf8', this.bodyStart) : '';
      this.bytes = undefined;
    }
    return this.decoded;
  }

  set body(value: string) {
    this.decoded = value;
    this.bytes = undefined;
  }
}

/** validateSkillMdBytes' result: `textLength` is counted on first read (a pass over the bytes, not always needed). */
class BytesValidation implements SkillMdValidation {
  parsed: ParsedSkillMd;
  problems: Problem[];
  references: SkillReference[];
  mentions: SkillMention[];
  private length: number | undefined = undefined;

  constructor(result: SkillMdValidation, private readonly bytes: Buffer) {
    this.parsed = result.parsed;
    this.problems = result.problems;
    this.references = result.references;
    this.mentions = result.mentions;
  }

  get textLength(): number {
    return (this.length ??= utf16Length(this.bytes));
  }
}


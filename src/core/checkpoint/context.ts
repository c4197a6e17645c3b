/**
 * Lenient parser of an AWAIT checkpoint context file: frontmatter invocation, progress
 * summary, partial outputs and questions, with the exact offsets of every `Answer` value so the
 * writer can replace those and nothing else. Never throws.
 */
import * as YAML from 'yaml';
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_TOKENS, parseYamlWithinLimits } from '../base/boundedYaml';

export type QuestionType = 'single' | 'multi' | 'text' | 'confirm';

/** The part of the file that holds one question's answer (what the writer replaces). */
export interface AnswerRegion {
  /** UTF-16 offsets into the parsed text: [start, end). */
  start: number;
  end: number;
  /** The same region as UTF-8 byte offsets into the file. */
  byteStart: number;
  byteEnd: number;
  /** False when the question has no `Answer:` field; then start === end is where one gets inserted. */
  hasMarker: boolean;
  /** 1-based line of the `Answer:` marker (or of the insertion point). */
  line: number;
}

export interface ContextQuestion {
  /** Upper-cased id from the heading, e.g. `Q1`. */
  id: string;
  text: string;
  type: QuestionType;
  options: string[];
  allowOther: boolean;
  /** The answer as written (HTML comments removed, trimmed); '' = unanswered. */
  answer: string;
  /** 1-based line of the question heading. */
  line: number;
  answerRegion: AnswerRegion;
}

export interface ContextProblem {
  message: string;
  line: number;
  /** A fatal problem makes the file an `Invalid context format`. */
  fatal: boolean;
}

export interface ParsedContext {
  /** From the frontmatter (`skill`), else from a `# Checkpoint: <skill>` title. */
  skill?: string;
  args?: string;
  status?: string;
  created?: string;
  frontmatter?: Record<string, unknown>;
  title?: string;
  progressSummary: string;
  partialOutputs: string[];
  questions: ContextQuestion[];
  /** The file's dominant line ending; answers written with several lines use it. */
  eol: '\n' | '\r\n';
  problems: ContextProblem[];
  /** No fatal problem: the file can be answered and resumed. */
  valid: boolean;
}

interface Line {
  text: string;
  start: number;
  /** Offset just past the text (before the line ending). */
  end: number;
}

interface Heading {
  index: number;
  level: number;
  text: string;
}

// Linear regexes only: no two quantifiers that can share the same characters next to each other, and tails
// are `[^]*` (a `.*$` stops at U+2028 and then backtracks over the blanks before it).
const QUESTION_HEADING = /^(?:\*\*|__)?[ \t]*(Q\d+[A-Za-z]?)(?![A-Za-z0-9])[ \t]*(?:(?:\*\*|__)[ \t]*)?(?:[:.)\u2013\u2014-][ \t]*)?(?:\*\*|__)?([^]*)$/i;
const FIELD_KEYS = 'type|options|allow[- _]?other|answer';
const FIELD = new RegExp(
  `^[ \\t]*(?:(?:[-*+])[ \\t]+)?(?:(\\*\\*|__)(${FIELD_KEYS})[ \\t]*:[ \\t]*\\1|(\\*\\*|__)(${FIELD_KEYS})\\3[ \\t]*:|(${FIELD_KEYS})[ \\t]*:)`,
  'i',
);
const FIELD_NO_BULLET = new RegExp(
  `^[ \\t]*(?:(\\*\\*|__)(${FIELD_KEYS})[ \\t]*:[ \\t]*\\1|(\\*\\*|__)(${FIELD_KEYS})\\3[ \\t]*:|(${FIELD_KEYS})[ \\t]*:)`,
  'i',
);
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]([^]*)$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]([^]*))?$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const MAX_QUESTIONS = 500;
const MAX_YAML_FRONTMATTER = 8192;

/** Splits text into lines (LF, CRLF or a lone CR end a line), keeping offsets into the original. */
function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      lines.push({ text: text.slice(start, i), start, end: i });
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  lines.push({ text: text.slice(start), start, end: text.length });
  return lines;
}

/** Drops trailing spaces and tabs (a loop: `/[ \t]+$/` is quadratic on long blank runs inside a line). */
function trimEndBlank(s: string): string {
  let end = s.length;
  while (end > 0 && (s.charCodeAt(end - 1) === 32 || s.charCodeAt(end - 1) === 9)) end--;
  return s.slice(0, end);
}

/** `Title ##` → `Title` (an ATX heading's optional closing sequence). */
function stripClosingHashes(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '#') end--;
  if (end === s.length || end === 0) return end === 0 ? '' : s;
  return s[end - 1] === ' ' || s[end - 1] === '\t' ? trimEndBlank(s.slice(0, end)) : s;
}

function scalarToString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  return undefined;
}

/** Frontmatter values by a line-by-line `key: value` reading, for YAML that does not parse. */
function looseFrontmatter(lines: Line[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const line of lines) {
    const m = /^([A-Za-z_][\w-]*)[ \t]*:([^]*)$/.exec(line.text);
    if (!m || m[1] in data) continue;
    let v = m[2].trim();
    if (v.length >= 2 && ((v[0] === '"' && v.endsWith('"')) || (v[0] === "'" && v.endsWith("'")))) v = v.slice(1, -1);
    data[m[1]] = v;
  }
  return data;
}

function parseQuestionType(raw: string): QuestionType | undefined {
  const v = raw.trim().toLowerCase().replace(/[`*_]/g, '');
  if (!v) return undefined;
  if (/^(single|choice|select|radio|one)/.test(v)) return 'single';
  if (/^(multi|many|checkbox|several)/.test(v)) return 'multi';
  if (/^(confirm|yes|y\/n|bool|boolean)/.test(v)) return 'confirm';
  if (/^(text|free|string|open|input)/.test(v)) return 'text';
  return undefined;
}

function isYes(raw: string): boolean {
  return /^(yes|y|true|on|1)$/i.test(raw.trim().replace(/[`*_]/g, ''));
}

function cleanItem(raw: string): string {
  let v = raw.trim();
  if (v.length >= 2 && v[0] === '`' && v.endsWith('`')) v = v.slice(1, -1).trim();
  return v;
}

/** A line that would end an answer (or, as a heading, the question) if it appeared in one; the writer escapes such lines with a backslash. */
function isAnswerBreaker(line: string): boolean {
  return THEMATIC_BREAK.test(line) || HEADING.test(line) || FENCE.test(line) || matchField(line, true) !== undefined;
}

function matchField(text: string, allowBullet: boolean): { key: string; end: number } | undefined {
  const m = (allowBullet ? FIELD : FIELD_NO_BULLET).exec(text);
  if (!m) return undefined;
  const key = (m[2] ?? m[4] ?? m[5]).toLowerCase().replace(/[- _]/g, '');
  return { key, end: m[0].length };
}

/** How many backslashes `line` starts with. */
function leadingBackslashes(line: string): number {
  let k = 0;
  while (line.charCodeAt(k) === 92) k++;
  return k;
}

/*
 * Answers are stored so that they read back exactly:
 * - a continuation line that would end the answer (heading, fence, thematic break, field) is written with one
 *   more leading backslash, and so is such a line that already starts with backslashes; the reader drops one;
 * - `<!--` is written `<\!--` (and `<\!--` as `<\\!--`), since the reader removes HTML comments;
 * - everything else, trailing blanks on inner lines included, is kept as it is.
 */

/** Reader side of the line escape: `\## x` → `## x`, `\\## x` → `\## x`; other lines unchanged. */
function unescapeAnswerLine(line: string): string {
  const k = leadingBackslashes(line);
  return k > 0 && isAnswerBreaker(line.slice(k)) ? line.slice(1) : line;
}

/** Writer side of the line escape. */
function escapeAnswerLine(line: string): string {
  return isAnswerBreaker(line.slice(leadingBackslashes(line))) ? `\\${line}` : line;
}

/** Answer text as shown and checked: writer escapes undone, HTML comments removed, trimmed. */
function answerText(first: string, rest: string[]): string {
  const joined = [first, ...rest.map(unescapeAnswerLine)].join('\n').replace(HTML_COMMENT, '');
  return joined.replace(/<(\\+)!--/g, (_m, bs: string) => `<${bs.slice(1)}!--`).trim();
}

/** An answer as it reads back after writing: trimmed, line endings as `\n`. */
export function normaliseAnswer(value: string): string {
  return value.trim().replace(/\r\n|\r/g, '\n');
}

/** Parses a context file's text leniently. Never throws; problems say what is wrong. */
export function parseContextFile(text: string): ParsedContext {
  const result: ParsedContext = { progressSummary: '', partialOutputs: [], questions: [], eol: '\n', problems: [], valid: false };
  if (typeof text !== 'string') {
    result.problems.push({ message: 'The context file is not text', line: 1, fatal: true });
    return result;
  }
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  result.eol = crlf > lf ? '\r\n' : '\n';

  const lines = splitLines(text);
  // UTF-8 byte offset of each line start, computed once (per-question prefix measuring would be quadratic).
  const lineBytes: number[] = [];
  for (let i = 0, b = 0; i < lines.length; i++) {
    lineBytes.push(b);
    b += Buffer.byteLength(text.slice(lines[i].start, i + 1 < lines.length ? lines[i + 1].start : text.length), 'utf8');
  }
  const byteAt = (lineIndex: number, offset: number) => lineBytes[lineIndex] + Buffer.byteLength(text.slice(lineIndex === 0 ? 0 : lines[lineIndex].start, offset), 'utf8');
  if (lines.length && lines[0].text.startsWith('\uFEFF')) {
    lines[0] = { text: lines[0].text.slice(1), start: lines[0].start + 1, end: lines[0].end };
  }

  // Frontmatter.
  let bodyStart = 0;
  if (lines[0]?.text.trimEnd() === '---') {
    let close = -1;
    for (let i = 1; i < lines.length; i++) {
      const t = lines[i].text.trimEnd();
      if (t === '---' || t === '...') { close = i; break; }
    }
    if (close === -1) {
      result.problems.push({ message: 'The frontmatter has no closing ---', line: 1, fatal: false });
    } else {
      const fmLines = lines.slice(1, close);
      let data: Record<string, unknown> | undefined;
      try {
        const source = fmLines.map((l) => l.text).join('\n');
        // A checkpoint's frontmatter is a few lines; a huge, deep or complex one is read line by line instead of as YAML
        // (the YAML library recurses once per level, and deep enough that can abort the process).
        const parsed = source.length <= MAX_YAML_FRONTMATTER ? parseYamlWithinLimits(source, { uniqueKeys: false, prettyErrors: false, logLevel: 'error' }) : undefined;
        const doc = parsed?.doc;
        if (!parsed) {
          result.problems.push({ message: `The frontmatter is over ${MAX_YAML_FRONTMATTER} characters; it was read as plain key: value lines`, line: 2, fatal: false });
        } else if (!doc) {
          const what = parsed.limit?.kind === 'tokens' ? `has more than ${MAX_YAML_TOKENS} YAML tokens`
            : parsed.limit?.kind === 'aliases' ? `has more than ${MAX_YAML_ALIASES} aliases` : `is nested more than ${MAX_YAML_DEPTH} levels deep`;
          result.problems.push({ message: `The frontmatter ${what}; it was read as plain key: value lines`, line: 2, fatal: false });
        } else if (doc.errors.length === 0) {
          // Only top-level scalars are needed; not converting the whole document keeps alias bombs cheap.
          const contents = doc.contents;
          if (YAML.isMap(contents)) {
            data = {};
            for (const pair of contents.items) {
              const key = YAML.isScalar(pair.key) ? pair.key.value : undefined;
              if (typeof key !== 'string' || Object.prototype.hasOwnProperty.call(data, key)) continue;
              data[key] = YAML.isScalar(pair.value) ? pair.value.value : null;
            }
          } else if (contents !== null && !(YAML.isScalar(contents) && contents.value === null)) {
            result.problems.push({ message: 'The frontmatter is not a mapping', line: 2, fatal: false });
          }
        } else {
          result.problems.push({ message: `The frontmatter is not valid YAML: ${doc.errors[0].message.split('\n')[0]}`, line: 2, fatal: false });
        }
      } catch (e) {
        result.problems.push({ message: `The frontmatter could not be read: ${String((e as Error)?.message ?? e)}`, line: 2, fatal: false });
      }
      data ??= looseFrontmatter(fmLines);
      result.frontmatter = data;
      result.skill = scalarToString(data.skill)?.trim() || undefined;
      result.args = scalarToString(data.args);
      result.status = scalarToString(data.status)?.trim();
      result.created = scalarToString(data.created)?.trim();
      bodyStart = close + 1;
    }
  }

  // One pass over the body: headings outside code fences, and each question-like heading's own lines read
  // as they come, so that an answer is known to be open while its lines go by. Inside an answer a fence
  // is answer text: an old answer holding ``` cannot hide the questions after it, and rewriting an answer
  // cannot change which questions the file has. A fence that is never closed is text too.
  const headings: Heading[] = [];
  const readers = new Map<number, QuestionReader>();
  const closers = fenceClosers(lines, bodyStart);
  let fence: string | undefined;
  let reader: QuestionReader | undefined;
  for (let i = bodyStart; i < lines.length; i++) {
    const t = lines[i].text;
    if (fence) {
      const f = FENCE.exec(t);
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && t.trim() === f[1]) fence = undefined;
      reader?.opaque(i, t);
      continue;
    }
    if (reader?.answerOpen && !HEADING.test(t)) { reader.feed(i, t); continue; }
    const f = FENCE.exec(t);
    if (f && closers.closedAfter(i, f[1])) { fence = f[1]; reader?.opaque(i, t); continue; }
    const h = HEADING.exec(t);
    if (h) {
      const heading = { index: i, level: h[1].length, text: stripClosingHashes((h[2] ?? '').trim()) };
      headings.push(heading);
      reader = heading.level >= 2 && QUESTION_HEADING.test(heading.text) ? new QuestionReader(lines, i) : undefined;
      if (reader) readers.set(i, reader);
      continue;
    }
    reader?.feed(i, t);
  }

  const sectionEnd = (hi: number): number => {
    for (let j = hi + 1; j < headings.length; j++) if (headings[j].level <= headings[hi].level) return headings[j].index;
    return lines.length;
  };
  const sectionLines = (hi: number): Line[] => lines.slice(headings[hi].index + 1, sectionEnd(hi));
  const norm = (s: string) => s.toLowerCase().replace(/[*_`:]/g, '').replace(/\s+/g, ' ').trim();

  const titleIndex = headings.findIndex((h) => h.level === 1);
  if (titleIndex !== -1) {
    result.title = headings[titleIndex].text;
    if (!result.skill) {
      const m = /^checkpoint\s*[:\u2013\u2014-]\s*(\S+)/i.exec(result.title.replace(/[*`]/g, ''));
      if (m) result.skill = m[1];
    }
  }

  let questionsIndex = -1;
  for (let hi = 0; hi < headings.length; hi++) {
    const name = norm(headings[hi].text);
    if (/^progress( summary)?$/.test(name) && !result.progressSummary) {
      result.progressSummary = sectionLines(hi).map((l) => l.text).join('\n').trim();
    } else if (/^partial outputs?$/.test(name) && result.partialOutputs.length === 0) {
      const body = sectionLines(hi).map((l) => l.text).filter((t) => t.trim());
      const items = body.map((t) => LIST_ITEM.exec(t)).filter((m): m is RegExpExecArray => !!m).map((m) => cleanItem(m[1]));
      result.partialOutputs = (items.length ? items : body.map(cleanItem)).filter((v) => v);
    } else if (/^(open )?questions?$/.test(name) && questionsIndex === -1) {
      questionsIndex = hi;
    }
  }

  // Question headings: inside the Questions section when there is one, else anywhere below the title.
  const qFrom = questionsIndex === -1 ? 0 : questionsIndex + 1;
  const qTo = questionsIndex === -1 ? headings.length : headings.findIndex((h, j) => j > questionsIndex && h.level <= headings[questionsIndex].level);
  const qEnd = qTo === -1 ? headings.length : qTo;
  const seen = new Map<string, number>();
  for (let hi = qFrom; hi < qEnd; hi++) {
    const h = headings[hi];
    if (h.level < 2) continue;
    const m = QUESTION_HEADING.exec(h.text);
    if (!m) continue;
    if (result.questions.length >= MAX_QUESTIONS) {
      result.problems.push({ message: `More than ${MAX_QUESTIONS} questions`, line: h.index + 1, fatal: true });
      break;
    }
    const id = m[1].toUpperCase();
    const line = h.index + 1;
    if (seen.has(id)) {
      result.problems.push({ message: `Question ${id} appears twice (lines ${seen.get(id)} and ${line})`, line, fatal: true });
    } else {
      seen.set(id, line);
    }
    // The question's own lines run up to the next heading of any level (an answer runs to the next heading).
    const questionText = m[2].trim().replace(/(?:\*\*|__)$/, '').trim();
    result.questions.push((readers.get(h.index) as QuestionReader).finish(id, questionText, line, text, result, byteAt));
  }

  if (result.questions.length === 0) result.problems.push({ message: 'No questions (### Q1: ...) found', line: 1, fatal: true });
  if (!result.skill) {
    result.problems.push({ message: 'No skill named (frontmatter `skill:` or a `# Checkpoint: <skill>` title)', line: 1, fatal: true });
  } else if (!/^[A-Za-z0-9][A-Za-z0-9._-]*(?::[A-Za-z0-9][A-Za-z0-9._-]*)?$/.test(result.skill)) {
    result.problems.push({ message: `The skill name '${result.skill.slice(0, 80)}' is not a valid skill name`, line: 1, fatal: true });
  }
  result.valid = !result.problems.some((p) => p.fatal);
  return result;
}

/** Where fences close: `closedAfter(i, fence)` says whether a line after `i` closes a fence opened with `fence`. */
function fenceClosers(lines: Line[], from: number): { closedAfter(i: number, fence: string): boolean } {
  // For each line, the longest closing run of backticks / tildes on any later line (suffix maxima: linear).
  const n = lines.length;
  const ticks = new Int32Array(n + 1);
  const tildes = new Int32Array(n + 1);
  for (let i = n - 1; i >= from; i--) {
    ticks[i] = ticks[i + 1];
    tildes[i] = tildes[i + 1];
    const t = lines[i].text;
    const f = FENCE.exec(t);
    if (f && t.trim() === f[1]) {
      if (f[1][0] === '`') ticks[i] = Math.max(ticks[i], f[1].length);
      else tildes[i] = Math.max(tildes[i], f[1].length);
    }
  }
  return { closedAfter: (i, fence) => (fence[0] === '`' ? ticks : tildes)[i + 1] >= fence.length };
}

/** Reads one question's lines (Type, Options, Allow-Other, Answer) as the body scan hands them over. */
class QuestionReader {
  private type: QuestionType | undefined;
  private rawType: string | undefined;
  private readonly options: string[] = [];
  private allowOther = false;
  private answerMarker: { lineIndex: number; offset: number } | undefined;
  private inOptions = false;
  private lastContent: number;
  private answerLines: number[] = [];
  private readonly extraAnswers: number[] = [];
  /** Lines after `Answer:` up to a thematic break, another field or a heading belong to the answer. */
  answerOpen = false;

  constructor(private readonly lines: Line[], headingIndex: number) {
    this.lastContent = headingIndex;
  }

  /** A line inside a fenced block of the question's text: content, never a field. */
  opaque(i: number, t: string): void {
    this.inOptions = false;
    if (t.trim() !== '') this.lastContent = i;
  }

  feed(i: number, t: string): void {
    if (this.answerOpen) {
      if (THEMATIC_BREAK.test(t) || matchField(t, true)) {
        this.answerOpen = false;
      } else {
        this.answerLines.push(i);
        return;
      }
    }
    if (t.trim() === '') return;
    if (THEMATIC_BREAK.test(t)) { this.inOptions = false; return; }
    const item = this.inOptions ? LIST_ITEM.exec(t) : null;
    if (item) {
      const v = cleanItem(item[1]);
      if (v) this.options.push(v);
      this.lastContent = i;
      return;
    }
    const field = matchField(t, !this.inOptions);
    this.inOptions = false;
    this.lastContent = i;
    if (!field) return;
    const value = t.slice(field.end);
    if (field.key === 'type') {
      this.rawType = value.trim();
      this.type = parseQuestionType(this.rawType);
    } else if (field.key === 'options') {
      this.inOptions = true;
      const inline = value.trim();
      if (inline) for (const o of inline.split(/[,|]/)) if (cleanItem(o)) this.options.push(cleanItem(o));
    } else if (field.key === 'allowother') {
      this.allowOther = isYes(value);
    } else if (field.key === 'answer') {
      if (this.answerMarker) {
        this.extraAnswers.push(i);
        return;
      }
      this.answerMarker = { lineIndex: i, offset: this.lines[i].start + field.end };
      this.answerLines = [];
      this.answerOpen = true;
    }
  }

  finish(id: string, headingText: string, line: number, text: string, result: ParsedContext, byteAt: (lineIndex: number, offset: number) => number): ContextQuestion {
    const { lines, options, allowOther, rawType, answerMarker } = this;
    for (const extra of this.extraAnswers) {
      result.problems.push({ message: `Question ${id} has more than one Answer field; the first one is used`, line: extra + 1, fatal: false });
    }
    let type = this.type;
    if (rawType !== undefined && type === undefined && rawType !== '') {
      result.problems.push({ message: `Question ${id} has an unknown type '${rawType.slice(0, 40)}'; it is asked as text`, line, fatal: false });
    }
    if (!type) type = options.length ? 'single' : 'text';
    if ((type === 'single' || type === 'multi') && options.length === 0 && !allowOther) {
      result.problems.push({ message: `Question ${id} is a ${type} choice without options; it is asked as text`, line, fatal: false });
    }

    let region: AnswerRegion;
    let answer = '';
    if (answerMarker) {
      const markerLine = lines[answerMarker.lineIndex];
      const contentLines = this.answerLines.filter((i) => lines[i].text.trim() !== '');
      const lastIndex = contentLines.length ? contentLines[contentLines.length - 1] : answerMarker.lineIndex;
      const start = answerMarker.offset;
      const end = lines[lastIndex].end;
      const rest = contentLines.length ? this.answerLines.filter((i) => i <= lastIndex).map((i) => lines[i].text) : [];
      answer = answerText(text.slice(start, markerLine.end), rest);
      region = { start, end, byteStart: byteAt(answerMarker.lineIndex, start), byteEnd: byteAt(lastIndex, end), hasMarker: true, line: answerMarker.lineIndex + 1 };
    } else {
      const at = lines[this.lastContent].end;
      const b = byteAt(this.lastContent, at);
      region = { start: at, end: at, byteStart: b, byteEnd: b, hasMarker: false, line: this.lastContent + 1 };
      result.problems.push({ message: `Question ${id} has no Answer field; one is added when it is answered`, line, fatal: false });
    }
    return { id, text: headingText.trim(), type, options: [...options], allowOther, answer, line, answerRegion: region };
  }
}

/** Ids of the questions whose answer is empty, in file order. */
export function unansweredQuestions(parsed: ParsedContext): string[] {
  return parsed.questions.filter((q) => q.answer === '').map((q) => q.id);
}

/** Formats an answer value for the file: one space after the marker, extra lines in the file's line ending, escaped so that it reads back as `normaliseAnswer(value)`. */
export function formatAnswerValue(value: string, eol: string): string {
  const trimmed = value.trim();
  if (!trimmed) return '';
  const escaped = trimmed.replace(/<(\\*)!--/g, (_m, bs: string) => `<\\${bs}!--`);
  const lines = escaped.split(/\r\n|\r|\n/).map((l, i) => (i > 0 ? escapeAnswerLine(l) : l));
  return ` ${lines.join(eol)}`;
}

/** Returns `text` with the given questions' Answer fields replaced by `values`; every other character is kept. */
export function applyAnswers(text: string, parsed: ParsedContext, values: Readonly<Record<string, string>>): string {
  const edits = parsed.questions
    .filter((q) => Object.prototype.hasOwnProperty.call(values, q.id))
    .map((q) => {
      const formatted = formatAnswerValue(values[q.id], parsed.eol);
      return { start: q.answerRegion.start, end: q.answerRegion.end, insert: q.answerRegion.hasMarker ? formatted : `${parsed.eol}Answer:${formatted}` };
    })
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.insert + out.slice(e.end);
  return out;
}

/**
 * Mentions of other skills and commands in a body: "use the `db-reindex` skill", "invoke `/audit-workflows`", "run
 * /deploy". Found by plain patterns over the body's text (ASCII, so a UTF-8 index's byte text is searched as is);
 * discovery/claudeWiring.ts checks them against every name Claude Code loads (`mention-unknown`).
 */
import type { Range } from '../base/types';
import { detach } from '../base/text';
import type { BodyView } from './bodyRules';

/** One mention: the name as written (`db-reindex`, `my-plugin:review`), whether it was a `/command`, and where the name is. */
export interface SkillMention {
  name: string;
  slash: boolean;
  range: Range;
}

// "use the `x` skill", "invoke the **x** skill", "load x skill": a verb, then the name, then the word skill (matched
// backwards from each "skill", in the text just before it).
const SKILL_PHRASE = /\b(?:use|using|invoke|invoking|run|running|call|load|trigger|activate|apply|launch)\s+(?:the\s+)?([`*"']{0,2})([a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)?)\1\s+$/i;
// The verb before a `/command` (bare, or as inline code: "run `/deploy staging`"), matched backwards from each `/`.
const SLASH_VERB = /\b(?:run|invoke|use|type|call|execute|try|enter)\s+(?:the\s+)?(`?)$/i;
const SLASH_NAME = /^\/([a-z][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)?)/;
/** A folder word right after a `/name` ("try /docs directory only"): the name is a path, not a command. */
const FOLDER_AFTER = /^[ \t]+(?:directory|directories|folder|folders|dir|subfolder|subdirectory|path)\b/i;
/** Words that stand where a name would ("use this skill", "invoke the right skill"). */
const NOT_NAMES = new Set(['this', 'that', 'the', 'a', 'an', 'your', 'my', 'our', 'their', 'its', 'each', 'every', 'any', 'which', 'same', 'new', 'right', 'appropriate', 'relevant', 'correct', 'following', 'above', 'below', 'next', 'other', 'another', 'whole', 'full', 'main', 'parent', 'matching', 'selected', 'specific', 'chosen', 'named', 'given', 'target', 'existing', 'corresponding', 'skill']);
/** How far before "skill" or `/` a mention's verb may start. */
const WINDOW = 120;

/** The mentions in a body, each with the range of its name in the file (`bodyStartLine`: the body's first file line). */
export function findSkillMentions(body: BodyView, bodyStartLine: number): SkillMention[] {
  const { lines, first } = body;
  const text = lines.text;
  const from = lines.starts[first] ?? 0;
  const out: SkillMention[] = [];
  const shift = bodyStartLine - 1 - first;
  const add = (name: string, at: number, slash: boolean) => {
    if (NOT_NAMES.has(name.toLowerCase())) return;
    const r = lines.range(at, at + name.length);
    // A copy of the name: a bulk run keeps mentions until every skill is loaded (discovery/claudeWiring.ts), and a
    // name cut from the file would keep the whole text alive (set here, not later: a later write to the field made
    // the optimized code that relied on it bail out).
    out.push(mention(detach(name), slash, r.line + shift, r.column, r.endLine + shift, r.endColumn));
  };
  // "… skill": the phrase that ends right before it. Only lower-case "skill" and "Skill" are looked for, both found
  // by one search for "kill" (a rarer first letter than "s": fewer false starts).
  for (let k = text.indexOf('kill', from + 1); k >= 0; k = text.indexOf('kill', k + 4)) {
    const i = k - 1;
    const s = text.charCodeAt(i);
    if (s !== 115 && s !== 83) continue; // "skill", "Skill"
    const after = text.charCodeAt(i + 5);
    if ((after >= 97 && after <= 122) || (after >= 65 && after <= 90)) continue; // "skills", "skillful"
    // The phrase ends with a name and white space: "… `x` skill", "… x skill".
    const space = text.charCodeAt(i - 1);
    if (space !== 32 && space !== 10 && space !== 9) continue;
    const last = text.charCodeAt(i - 2);
    if (!((last >= 97 && last <= 122) || (last >= 48 && last <= 57) || last === 96 || last === 42 || last === 34 || last === 39 || last === 45 || last === 95)) continue;
    const start = phraseStart(text, Math.max(from, i - WINDOW), i - 2);
    if (start < 0) continue;
    const m = SKILL_PHRASE.exec(text.slice(start, i));
    if (m) add(m[2], start + m.index + m[0].lastIndexOf(m[2]), false);
  }
  // `/command` after a verb: "run /deploy", "invoke `/review-pr 12`".
  for (let i = text.indexOf('/', from); i >= 0; i = text.indexOf('/', i + 1)) {
    const before = text.charCodeAt(i - 1);
    if (before !== 32 && before !== 96) continue; // after a space or a backtick only
    const first = text.charCodeAt(i + 1);
    if (first < 97 || first > 122) continue; // a command starts with a lower-case letter
    const name = SLASH_NAME.exec(text.slice(i, i + 80));
    if (!name) continue;
    const start = Math.max(from, i - 40);
    const verb = SLASH_VERB.exec(text.slice(start, i));
    if (!verb) continue;
    const end = i + name[0].length;
    const next = text.charCodeAt(end);
    if (verb[1]) {
      // Inline code: the command, then the end of the code or its arguments.
      if (next !== 96 && next !== 32) continue;
    } else if (/[\w/:-]/.test(text[end] ?? '') || (next === 46 && /\w/.test(text[end + 1] ?? ''))) {
      continue; // a path or a file name, not a command
    }
    if (FOLDER_AFTER.test(text.slice(verb[1] ? end + 1 : end, end + 24))) continue; // "try /docs directory only": a folder
    add(name[1], i + 1, true);
  }
  out.sort((a, b) => a.range.line - b.range.line || a.range.column - b.range.column);
  return out.filter((m, i) => i === 0 || m.range.line !== out[i - 1].range.line || m.range.column !== out[i - 1].range.column);
}

/**
 * A mention object, built property by property from an empty object. Mentions live to the end of a bulk run: built as
 * object literals, V8 noticed that and switched those literals' allocations to old space after a few thousand skills,
 * which threw away findSkillMentions' optimized code (twice: the mention and its range). An empty object's allocation
 * is not tracked that way. Same properties, same order.
 */
function mention(name: string, slash: boolean, line: number, column: number, endLine: number, endColumn: number): SkillMention {
  const range = {} as Range;
  range.line = line;
  range.column = column;
  range.endLine = endLine;
  range.endColumn = endColumn;
  const m = {} as SkillMention;
  m.name = name;
  m.slash = slash;
  m.range = range;
  return m;
}

const SPACE = /\s/;

/** Whether `text[at]` is white space as a regex's `\s` sees it. */
function isSpace(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c === 32 || (c < 128 ? c >= 9 && c <= 13 : SPACE.test(text[at]));
}

/** A character of a name as SKILL_PHRASE reads it (any case: the regex is case-insensitive), or of its quotes. */
function isNameOrQuote(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 58 || c === 96 || c === 42 || c === 34 || c === 39;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}
/**
 * Where SKILL_PHRASE can start in `text[start, last + 2)` (a name or quote at `last`, then one blank): the verb is the
 * last or the next-to-last run of letters before the name (a "the" between), so the regex is run from just before it
 * instead of across the whole window. -1: no match is possible. The character before the returned offset is kept
 * (or the window's start): `\b` at the verb sees what it saw in the whole window.
 */
function phraseStart(text: string, start: number, last: number): number {
  let p = last;
  while (p > start && isNameOrQuote(text.charCodeAt(p - 1))) p--;
  if (p <= start || !isSpace(text, p - 1)) return -1;
  while (p > start && isSpace(text, p - 1)) p--;
  let q = p;
  while (q > start && isAsciiLetter(text.charCodeAt(q - 1))) q--;
  if (q === p) return -1;
  if (q > start && isSpace(text, q - 1)) {
    let r = q;
    while (r > start && isSpace(text, r - 1)) r--;
    let v = r;
    while (v > start && isAsciiLetter(text.charCodeAt(v - 1))) v--;
    if (v < r) q = v;
  }
  return q > start ? q - 1 : start;
}

/**
 * Skill names: the rules (length, case, characters, hyphens, reserved words), the limit, and the one suggested
 * name. Validation (`name-*` rules), New Skill / `skillflow new` and the quick fixes all use this module, so they
 * count, refuse and suggest alike.
 */
import { codePointLength, nfkc } from '../base/text';

/** At most this many characters (code points, after trimming and NFKC). */
export const NAME_MAX = 64;
/** Words claude.ai and the API refuse inside a name (upload profile). */
export const RESERVED_NAME_WORDS: readonly string[] = ['anthropic', 'claude'];

/** One rule a name breaks: its rule code, an optional rule variant (docs/rules.md) and what was found. */
export type NameFinding =
  | { code: 'name-length'; length: number }
  | { code: 'name-case'; found: string[] }
  | { code: 'name-charset'; found: string[]; variant?: 'non-ascii-lowercase' }
  | { code: 'name-hyphen'; what: 'starts' | 'ends' | 'double' }
  | { code: 'name-reserved'; word: string };

/** A name as the rules compare it: trimmed, NFKC-normalised. */
export function normalizeName(raw: string): string {
  return nfkc(raw.trim());
}

/** A name made of a-z, 0-9 and '-' only: no case or character finding is possible. */
const PLAIN_NAME = /^[a-z0-9-]*$/;

/** Every rule a (normalised) name breaks, in rule order; [] for a valid name. */
export function nameFindings(name: string): NameFinding[] {
  const out: NameFinding[] = [];
  const plain = PLAIN_NAME.test(name);
  const length = codePointLength(name);
  if (length > NAME_MAX) out.push({ code: 'name-length', length });
  if (!plain) {
    const upper = [...new Set(name.match(/[\p{Lu}\p{Lt}]/gu) ?? [])];
    if (upper.length) out.push({ code: 'name-case', found: upper });
    const bad = [...new Set(name.toLowerCase().match(/[^a-z0-9-]/gu) ?? [])];
    if (bad.length) {
      // Lower-case letters outside ASCII (`é`) are letters to the reference validator; anything else is not.
      const onlyLetters = bad.every((c) => /^\p{Ll}$/u.test(c));
      out.push(onlyLetters ? { code: 'name-charset', found: bad, variant: 'non-ascii-lowercase' } : { code: 'name-charset', found: bad });
    }
  }
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) {
    out.push({ code: 'name-hyphen', what: name.includes('--') ? 'double' : name.startsWith('-') ? 'starts' : 'ends' });
  }
  const reserved = /anthropic|claude/i.exec(name);
  if (reserved) out.push({ code: 'name-reserved', word: reserved[0].toLowerCase() });
  return out;
}

/**
 * The valid name suggested for any text (diagnostic messages, quick fixes, New Skill): NFKC, camelCase and
 * acronym boundaries split, accents dropped (`Café` → `cafe`), lower case, runs of other characters joined by
 * single hyphens, at most NAME_MAX characters. '' when nothing usable is left.
 */
export function suggestSkillName(text: string): string {
  return text
    .normalize('NFKC')
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME_MAX)
    .replace(/-+$/, '');
}

/** How a character is shown in a message: `'_'`, `space`, or `U+0009` for other white space. */
export function showNameChar(c: string): string {
  if (c === ' ') return 'space';
  return /\s/.test(c) ? `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

/**
 * Checks a new skill's name as the user types (New Skill, `skillflow new`): undefined when valid, else what to
 * fix. Stricter than validation: a new name is ASCII (a non-ASCII lower-case letter is refused too).
 * `allowReserved` accepts `claude`/`anthropic` (fine everywhere but the upload profile).
 */
export function checkSkillName(name: string, opts?: { allowReserved?: boolean }): string | undefined {
  const n = normalizeName(name);
  if (n === '') return 'Enter a skill name, e.g. pdf-report.';
  for (const f of nameFindings(n)) {
    switch (f.code) {
      case 'name-length': return `Shorten the name to at most ${NAME_MAX} characters (this one has ${f.length}).`;
      case 'name-case': return 'Use lower-case letters only.';
      case 'name-charset': return `Use only a-z, 0-9 and '-' ('${f.found[0]}' is not allowed).`;
      case 'name-hyphen': return f.what === 'double' ? "Remove the '--': a skill name cannot contain '--'." : "Remove the hyphen: a skill name cannot start or end with '-'.";
      case 'name-reserved':
        if (!opts?.allowReserved) return `Remove '${f.word}': names containing 'anthropic' or 'claude' are refused on upload.`;
        break;
    }
  }
  return undefined;
}

/**
 * New-skill scaffolding (`skillflow new`, the New Skill command): `<parent>/<name>/SKILL.md` plus empty `scripts/`,
 * `references/`, `assets/` folders (each holding a `.gitkeep` so git keeps them). The SKILL.md
 * validates clean under every profile except for its TODO description (`description-placeholder`), which the
 * author replaces.
 */
import * as path from 'node:path';
import type { FileSystem } from '../base/fs';
import { codePointLength } from '../base/text';
import { checkSkillName, normalizeName, suggestSkillName } from '../skillmd/names';
import { DESCRIPTION_MAX } from '../validation/frontmatterRules';

export { checkSkillName };
export const TODO_DESCRIPTION = 'TODO - say what this skill does and when Claude should use it, in one or two sentences.';
const SUBFOLDERS = ['scripts', 'references', 'assets'];

function checkDescription(description: string): string | undefined {
  const d = description.trim();
  if (d === '') return 'The description cannot be empty.';
  const length = codePointLength(d);
  if (length > DESCRIPTION_MAX) return `Shorten the description to at most ${DESCRIPTION_MAX} characters (this one has ${length}).`;
  if (/[<>]/.test(d)) return "Remove '<' and '>': a description cannot contain them.";
  return undefined;
}

/** A YAML scalar for `text`: plain when that is unambiguous, else double-quoted (JSON is valid YAML). */
function yamlScalar(text: string): string {
  const plainSafe = /^[A-Za-z0-9(][^\n\r\t"#:'\\]*$/.test(text) && !/\s$/.test(text) && !/^(true|false|yes|no|on|off|null|~|[-+.\d][\d.eE+-]*)$/i.test(text);
  return plainSafe ? text : JSON.stringify(text);
}

function titleOf(name: string): string {
  return name.split('-').filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}

/** The SKILL.md text of a new skill. */
export function skillTemplate(name: string, description: string = TODO_DESCRIPTION): string {
  return `---
name: ${name}
description: ${yamlScalar(description.trim())}
---

# ${titleOf(name)}

TODO: write the instructions Claude follows when this skill is used. Keep this file short (under
500 lines); move long material into the references folder and link each file from here.

## When to use

TODO: the situations and requests this skill is for.

## Steps

1. TODO

## Bundled files

- scripts folder: code Claude runs instead of rewriting it each time.
- references folder: documents Claude reads only when a step needs them.
- assets folder: templates, images and other files used in the output.
`;
}

export type ScaffoldResult = { ok: true; dir: string; files: string[] } | { ok: false; message: string };

/** Creates `<parentDir>/<name>/` with SKILL.md, scripts/, references/, assets/; refuses an invalid name or an existing folder. `files` are absolute, SKILL.md first. */
export function scaffoldSkill(fs: FileSystem, parentDir: string, name: string, opts?: { description?: string }): ScaffoldResult {
  const nameProblem = checkSkillName(name);
  if (nameProblem) {
    // The name validate would suggest, so the two agree.
    const suggestion = suggestSkillName(normalizeName(name));
    return { ok: false, message: `Invalid skill name '${name}': ${nameProblem}${suggestion && suggestion !== name && !checkSkillName(suggestion) ? ` Try '${suggestion}'.` : ''}` };
  }
  const skillName = normalizeName(name);
  if (opts?.description !== undefined) {
    const descriptionProblem = checkDescription(opts.description);
    if (descriptionProblem) return { ok: false, message: `Invalid description: ${descriptionProblem}` };
  }
  const dir = path.join(path.resolve(parentDir), skillName);
  if (fs.lstat(dir)) return { ok: false, message: `Already exists: ${dir}` };
  const parent = fs.stat(path.dirname(dir));
  if (parent && !parent.isDirectory) return { ok: false, message: `Not a folder: ${path.dirname(dir)}` };

  const files: string[] = [];
  try {
    fs.mkdirp(dir);
    const skillMd = path.join(dir, 'SKILL.md');
    fs.writeFileAtomic(skillMd, skillTemplate(skillName, opts?.description));
    files.push(skillMd);
    for (const sub of SUBFOLDERS) {
      fs.mkdirp(path.join(dir, sub));
      const keep = path.join(dir, sub, '.gitkeep');
      fs.writeFileAtomic(keep, '');
      files.push(keep);
    }
  } catch (err) {
    return { ok: false, message: `Cannot create ${dir}: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { ok: true, dir, files };
}

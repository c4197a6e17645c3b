/** The one word for what a skills entry is, shared by the CLI's `list` and the Skills tree. */
import type { SkillEntry } from '../skillmd/model';

/**
 * What an entry is, in the words every human surface uses (the tree's tooltip too): `skill`, `workflow skill` or
 * `command file` (a `.claude/commands/*.md`). "command" alone is only ever what the user types (`/deploy`). JSON keeps
 * its `source` (`skill` | `command`) and `kind` (`workflow` | `command`: any other skill) values.
 */
export function entryType(s: Pick<SkillEntry, 'source' | 'kind'>): string {
  return s.source === 'command' ? sourceWord(s.source) : s.kind === 'workflow' ? 'workflow skill' : 'skill';
}

/** A source in text: `skill` or `command file` (resolve's "→ project command file .claude/commands/deploy.md"). */
export function sourceWord(source: SkillEntry['source']): string {
  return source === 'command' ? 'command file' : source;
}

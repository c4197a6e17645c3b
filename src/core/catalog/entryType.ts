/** The one word for what a skills entry is, shared by the CLI's `list` and the Skills tree. */
import type { SkillEntry } from '../skillmd/model';

/**
 * What an entry is, in the words every human surface uses (the tree's tooltip too): `skill`, `workflow skill` or
 * `command file` (a `.claude/commands/*.md`). "command" alone is only ever what the user types (`/deploy`). JSON keeps
 * its `source` (`skill` | `command`) and `kind` (`workflow` | `command`: any other skill) values.
 */
export function entryType(s: Pick<SkillEntry, 'source' | 'kind'>): string {
  return s.source === 'command' ? 'command file' : s.kind === 'workflow' ? 'workflow skill' : 'skill';
}

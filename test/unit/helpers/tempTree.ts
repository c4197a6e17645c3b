import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A fresh temp folder (real path) filled with `files` (relative path → content). */
export function tempTree(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-test-')));
  writeTree(dir, files);
  return dir;
}

export function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export function removeTree(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A minimal valid SKILL.md. */
export function skillMd(name: string, description = `The ${name} skill. Use it in tests.`, body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
}

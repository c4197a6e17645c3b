/** Shell quoting and script command lines (vscode-free, unit-tested): no skill name or path can inject commands. */
import * as path from 'node:path';

export type ShellKind = 'posix' | 'powershell';

/** Quotes one word for a POSIX shell; plain words stay readable. */
export function quotePosix(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_/.,:=@%+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Quotes one word for PowerShell (single-quoted literal: only `'` needs doubling). */
export function quotePowerShell(word: string): string {
  return `'${word.replace(/['\u2018\u2019\u201a\u201b]/g, "''")}'`;
}

export function quote(word: string, shell: ShellKind): string {
  return shell === 'powershell' ? quotePowerShell(word) : quotePosix(word);
}

const INTERPRETERS: Record<string, string[]> = {
  '.py': ['python3'],
  '.sh': ['bash'],
  '.bash': ['bash'],
  '.js': ['node'],
  '.mjs': ['node'],
  '.cjs': ['node'],
  '.rb': ['ruby'],
  '.pl': ['perl'],
  '.ps1': ['pwsh', '-File'],
};

/** The interpreter for a script by its extension, or undefined when the file is run directly. */
export function interpreterFor(file: string): string[] | undefined {
  return INTERPRETERS[path.extname(file).toLowerCase()];
}

/**
 * The command line that runs `<skillDir>/<scriptRelPath>` from the skill folder:
 * `cd '<skillDir>' && python3 scripts/x.py` (POSIX) or `Set-Location -LiteralPath '…'; & python3 'scripts/x.py'`.
 */
export function scriptCommandLine(skillDir: string, scriptRelPath: string, shell: ShellKind): string {
  const rel = scriptRelPath.split(path.sep).join('/');
  const interpreter = interpreterFor(rel);
  if (shell === 'powershell') {
    const target = quotePowerShell(interpreter ? rel : `./${rel}`);
    const run = interpreter ? `${interpreter.join(' ')} ${target}` : target;
    return `Set-Location -LiteralPath ${quotePowerShell(skillDir)}; & ${run}`;
  }
  const target = quotePosix((interpreter || rel.startsWith('/')) ? rel : `./${rel}`);
  const run = interpreter ? `${interpreter.join(' ')} ${target}` : target;
  return `cd ${quotePosix(skillDir)} && ${run}`;
}

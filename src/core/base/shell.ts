/** Shell quoting shared by every command line Skillflow builds (resume, run script): no value can inject commands, and nothing typed carries a control character. */
import * as path from 'node:path';

/**
 * Which quoting rules a command line follows: POSIX shells (sh, bash, dash, zsh), fish (which reads `\'` and `\\`
 * inside single quotes), PowerShell, or cmd.exe (double quotes; a word cmd.exe would still expand is refused).
 */
export type ShellKind = 'posix' | 'fish' | 'powershell' | 'cmd';

/** Quotes one word for a POSIX shell: plain words stay readable, anything else is single-quoted. */
export function quotePosix(word: string): string {
  // A leading '=' is excluded: zsh expands `=cmd` to a path.
  if (/^[A-Za-z0-9_/.,:@%+-][A-Za-z0-9_/.,:=@%+-]*$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Quotes one word for fish: inside '...' fish treats `\'` and `\\` as escapes, so both are escaped. */
export function quoteFish(word: string): string {
  if (/^[A-Za-z0-9_/.,:@+-][A-Za-z0-9_/.,:=@+-]*$/.test(word)) return word;
  return `'${word.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/**
 * Quotes one word for cmd.exe, or undefined when no quoting is safe: inside "..." cmd.exe still expands `%VAR%`
 * (and `!VAR!` with delayed expansion), and a `"` ends the quote. Backslashes before the closing quote are doubled
 * (the program's argument parser would read `\"` as a quote).
 */
export function quoteCmd(word: string): string | undefined {
  if (/["%!]/.test(word) || findTerminalControlChar(word)) return undefined;
  if (/^[A-Za-z0-9_/.,:=@+-]+$/.test(word)) return word;
  return `"${word.replace(/(\\+)$/, '$1$1')}"`;
}

/**
 * PowerShell single-quote quoting: inside '...' only quote characters are special, and PowerShell
 * treats the typographic single quotes (U+2018, U+2019, U+201A, U+201B) like `'`, so each is doubled.
 */
export function quotePowerShell(word: string): string {
  return `'${word.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

/**
 * The first character that must never be typed into an interactive terminal, or undefined: C0 controls
 * (tab and line feed included: a line feed ends the command early, Ctrl-U / Ctrl-W / Ctrl-A edit the line),
 * DEL, C1 controls and the Unicode line and paragraph separators. Quoting cannot make these safe, because
 * the terminal's line editor acts on them before the shell parses any quotes.
 */
export function findTerminalControlChar(text: string): { index: number; code: number } | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return { index: i, code: c };
  }
  return undefined;
}

/** `U+000A (line feed)`: how a refused character is named in messages. */
export function describeControlChar(code: number): string {
  const names: Record<number, string> = { 0x09: 'tab', 0x0a: 'line feed', 0x0d: 'carriage return', 0x1b: 'escape', 0x7f: 'delete', 0x2028: 'line separator', 0x2029: 'paragraph separator' };
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = names[code] ?? (code < 0x20 ? `Ctrl-${String.fromCharCode(code + 0x40)}` : 'control character');
  return `${hex} (${name})`;
}

/** `text` with every terminal control character shown as `\n`, `\t` or `\u0015`, for messages and logs. */
export function showControlChars(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && findTerminalControlChar(ch)) out += c === 10 ? '\\n' : c === 9 ? '\\t' : c === 13 ? '\\r' : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** Refuses a command line that carries a terminal control character (see findTerminalControlChar); `what` names it in the message. */
export function checkTypedCommand(commandLine: string, what = 'The command'): { ok: true } | { ok: false; message: string } {
  const bad = findTerminalControlChar(commandLine);
  return bad ? { ok: false, message: `${what} contains the control character ${describeControlChar(bad.code)}; it is not typed into a terminal` } : { ok: true };
}

/** Quotes `word` as one shell word for `shell`; undefined when cmd.exe cannot take it safely (quoteCmd). */
export function quoteShellArg(word: string, shell: Exclude<ShellKind, 'cmd'>): string;
export function quoteShellArg(word: string, shell: ShellKind): string | undefined;
export function quoteShellArg(word: string, shell: ShellKind): string | undefined {
  if (shell === 'cmd') return quoteCmd(word);
  return shell === 'powershell' ? quotePowerShell(word) : shell === 'fish' ? quoteFish(word) : quotePosix(word);
}

/**
 * The quoting of the user's shell for text they paste (the clipboard): that shell's own rules, cmd.exe included;
 * without a known shell, PowerShell on Windows and POSIX elsewhere.
 */
export function pasteShellKind(shellPath: string | undefined, platform: NodeJS.Platform): ShellKind {
  const p = (shellPath ?? '').trim();
  if (/(^|[\\/])cmd(\.exe)?$/i.test(p)) return 'cmd';
  return p ? shellKindFor(p) ?? 'posix' : platform === 'win32' ? 'powershell' : 'posix';
}

/**
 * The quoting a terminal shell needs: PowerShell for pwsh/powershell, fish for fish, none for cmd.exe (commands are
 * not typed into it: it cannot quote every path), else POSIX.
 */
export function shellKindFor(shellPath: string | undefined): Exclude<ShellKind, 'cmd'> | undefined {
  const p = (shellPath ?? '').trim();
  if (/(^|[\\/])(pwsh|powershell)(\.exe)?$/i.test(p)) return 'powershell';
  if (/(^|[\\/])fish(\.exe)?$/i.test(p)) return 'fish';
  if (/(^|[\\/])cmd(\.exe)?$/i.test(p)) return undefined;
  return 'posix';
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
export function scriptCommandLine(skillDir: string, scriptRelPath: string, shell: Exclude<ShellKind, 'cmd'>): string {
  const rel = scriptRelPath.split(path.sep).join('/');
  const interpreter = interpreterFor(rel);
  if (shell === 'powershell') {
    const target = quotePowerShell(interpreter ? rel : `./${rel}`);
    const run = interpreter ? `${interpreter.join(' ')} ${target}` : target;
    return `Set-Location -LiteralPath ${quotePowerShell(skillDir)}; & ${run}`;
  }
  const quote = shell === 'fish' ? quoteFish : quotePosix;
  const target = quote((interpreter || rel.startsWith('/')) ? rel : `./${rel}`);
  const run = interpreter ? `${interpreter.join(' ')} ${target}` : target;
  return `cd ${quote(skillDir)} && ${run}`;
}

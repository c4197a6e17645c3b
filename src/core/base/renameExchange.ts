/**
 * An atomic exchange of two names (Linux renameat2 RENAME_EXCHANGE), for the guarded writes: our new file takes the
 * path, and the file that was there keeps a name (ours), so a file another program renamed over the path at the last
 * moment is never destroyed: the writer reads it and folds it in. Node has no renameat2; the system's own Perl makes
 * the call (`syscall`), so nothing is built or shipped. One small Perl process per Node process serves every exchange
 * through two FIFOs (a round trip of microseconds: a process started per write would take milliseconds, and a file
 * another program appends to every few milliseconds would then never settle). Where there is no exchange (another
 * system, no Perl, a file system without it), the caller renames instead and the residual in docs/writes.md applies.
 */
import { spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as nodePath from 'node:path';

export type ExchangeOutcome =
  /** The names were swapped: the file that was at `path` is now at `tmp`. */
  | 'exchanged'
  /** `path` no longer names the file that was read (or is gone): nothing was done. */
  | 'changed'
  /** No exchange here: nothing was done; rename instead. */
  | 'unsupported';

/** renameat2's number in the kernels' system call tables (the generic table serves arm64). */
const RENAMEAT2: Partial<Record<string, number>> = { x64: 316, arm64: 276 };
const PERL = '/usr/bin/perl';
/**
 * Makes the two FIFOs in the folder it is given, opens them, removes them (nothing stays on disk), then answers each
 * request `tmp\0path\0ino\0size\0` with one byte: 0 swapped, 3 the path no longer names inode `ino` of `size` bytes,
 * 4 no exchange here.
 * It checks and swaps a few microseconds apart, and ends when this process closes its end (or dies).
 */
const SERVER = [
  'use POSIX qw(mkfifo); my ($d, $n) = @ARGV;',
  'mkfifo("$d/q", 0600) or exit 1; mkfifo("$d/a", 0600) or exit 1;',
  'open(my $q, "<", "$d/q") or exit 1; open(my $a, ">", "$d/a") or exit 1;',
  'unlink("$d/q", "$d/a"); rmdir($d); select($a); $| = 1; $/ = "\\0";',
  'while (defined(my $t = <$q>)) { my $p = <$q>; my $i = <$q>; my $z = <$q>; last unless defined $z; chomp($t, $p, $i, $z);',
  '  my @s = lstat($p); print((@s && $s[1] == $i && $s[7] == $z) ? (syscall($n, -100, $t, -100, $p, 2) == 0 ? 0 : 4) : 3); }',
].join('\n');

interface Server { pid: number; ask: number; answer: number }

/** The server of this process: undefined until first needed, null once it proved unavailable (stays off). */
let server: Server | undefined | null;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function errCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

function stop(s: Server): void {
  server = null;
  try { nodeFs.closeSync(s.ask); } catch { /* closed */ }
  try { nodeFs.closeSync(s.answer); } catch { /* closed */ }
  try { process.kill(s.pid); } catch { /* ended */ }
}

function start(nr: number): Server | null {
  if (!nodeFs.existsSync(PERL)) return null;
  let dir: string;
  try { dir = nodeFs.mkdtempSync(nodePath.join(nodeOs.tmpdir(), 'skillflow-exchange-')); } catch { return null; }
  // A clean environment: nothing from the user's PERL5OPT or PERL5LIB runs.
  const child = spawn(PERL, ['-e', SERVER, dir, String(nr)], { env: {}, stdio: 'ignore' });
  child.on('error', () => { /* no Perl: the opens below time out and renames are used */ });
  child.unref();
  const give = (): null => {
    try { if (child.pid !== undefined) process.kill(child.pid); } catch { /* ended */ }
    try { nodeFs.rmSync(dir, { recursive: true, force: true }); } catch { /* removed by the server */ }
    return null;
  };
  const until = Date.now() + 3000;
  let ask: number | undefined;
  // Non-blocking opens: a server that never comes up must not hang this process (a FIFO open blocks otherwise).
  while (ask === undefined) {
    try { ask = nodeFs.openSync(nodePath.join(dir, 'q'), nodeFs.constants.O_WRONLY | nodeFs.constants.O_NONBLOCK); } catch (e) {
      if ((errCode(e) !== 'ENXIO' && errCode(e) !== 'ENOENT') || Date.now() > until || child.exitCode !== null) return give();
      pause(1);
    }
  }
  let answer: number | undefined;
  while (answer === undefined) {
    try { answer = nodeFs.openSync(nodePath.join(dir, 'a'), nodeFs.constants.O_RDONLY | nodeFs.constants.O_NONBLOCK); } catch (e) {
      if (errCode(e) !== 'ENOENT' || Date.now() > until || child.exitCode !== null) { nodeFs.closeSync(ask); return give(); }
      pause(1);
    }
  }
  // The server removes the FIFOs once it holds both ends: before that, a read could see no writer yet (end of file).
  while (nodeFs.existsSync(nodePath.join(dir, 'a'))) {
    if (Date.now() > until || child.exitCode !== null || child.pid === undefined) { nodeFs.closeSync(ask); nodeFs.closeSync(answer); return give(); }
    pause(1);
  }
  return { pid: child.pid!, ask, answer };
}

/** One byte from the server, waiting at most `ms`; undefined when it ended or did not answer. */
function reply(s: Server, ms: number): number | undefined {
  const b = Buffer.alloc(1);
  const until = Date.now() + ms;
  for (let spins = 0; ; spins++) {
    try {
      if (nodeFs.readSync(s.answer, b, 0, 1, null) === 1) return b[0];
      return undefined; // end of file: the server ended
    } catch (e) {
      if (errCode(e) !== 'EAGAIN' || Date.now() > until) return undefined;
    }
    // The answer takes microseconds: spin first, then sleep in short steps (a loaded machine).
    if (spins > 200) pause(0.2);
  }
}

/**
 * Swaps `tmp` and `path` when `path` still names inode `ino` holding `size` bytes (both in one folder). The outcome is read from the
 * name we own when the server ends abnormally, so a server killed mid-way never leaves the caller guessing.
 */
export function exchangeIfSame(tmp: string, path: string, ino: number, size: number): ExchangeOutcome {
  const nr = RENAMEAT2[process.arch];
  if (process.platform !== 'linux' || nr === undefined || !Number.isSafeInteger(ino) || !Number.isSafeInteger(size) || server === null) return 'unsupported';
  if (tmp.includes('\0') || path.includes('\0')) return 'unsupported';
  server ??= start(nr);
  const s = server;
  if (!s) return 'unsupported';
  let ours: number;
  try { ours = nodeFs.lstatSync(tmp).ino; } catch { return 'unsupported'; }
  try { nodeFs.writeSync(s.ask, Buffer.from(`${tmp}\0${path}\0${ino}\0${size}\0`)); } catch { stop(s); return 'unsupported'; }
  const r = reply(s, 10_000);
  if (r === 0x30) return 'exchanged';
  if (r === 0x33) return 'changed';
  if (r === 0x34) return 'unsupported';
  // No answer: the server is stopped for good, and whether it swapped is told by the name we own.
  stop(s);
  try { return nodeFs.lstatSync(tmp).ino === ours ? 'unsupported' : 'exchanged'; } catch { return 'unsupported'; }
}

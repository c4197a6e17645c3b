/**
 * An atomic exchange of two names (Linux renameat2 RENAME_EXCHANGE), for the guarded writes: our new file takes the
 * path, and the file that was there keeps a name (ours), so a file another program renamed over the path at the last
 * moment is never destroyed: the writer reads it and folds it in. Node has no renameat2; the system's own Perl makes
 * the call (`syscall`), so nothing is built or shipped. One small Perl process per Node process serves every exchange
 * through two FIFOs (a round trip of microseconds: a process started per write would take milliseconds, and a file
 * another program appends to every few milliseconds would then never settle). The helper also holds a read lease on the
 * file around the swap, so a program writing to it is waited for and seen (SERVER below). Where there is no exchange
 * (another system, no Perl, a file system without it), the caller renames instead and the residual in
 * docs/architecture.md (Write guarantees) applies.
 */
import type * as ChildProcess from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as nodeOs from 'node:os';
import * as nodePath from 'node:path';

export type ExchangeOutcome =
  /** The names were swapped: the file that was at `path` is now at `tmp`. */
  | 'exchanged'
  /** `path` no longer names the file that was read (or is gone): nothing was done. */
  | 'changed'
  /** No exchange here: nothing was done; rename instead. */
  | 'unsupported'
  /** Another program kept the file open for writing (for two seconds): nothing was done. */
  | 'busy';

/** renameat2's number in the kernels' system call tables (the generic table serves arm64). */
const RENAMEAT2: Partial<Record<string, number>> = { x64: 316, arm64: 276 };
const PERL = '/usr/bin/perl';
/**
 * Makes the two FIFOs in the folder it is given, opens them, removes them (nothing stays on disk), then answers each
 * request `tmp\0path\0ino\0size\0mode\0` (mode `a`: other writers append; `j`: they rewrite the file whole). Once
 * it holds the lease it answers `L` and waits for the caller's word, `g\0` (the bytes are the ones edited: go on) or
 * `n\0` (they changed: answer 3); then, or at once, one byte:
 * - 0 swapped, and no other program has the replaced file open for writing (see below);
 * - 3 the path no longer names inode `ino` of `size` bytes, or a program is opening it for writing (nothing done;
 *   when another program renamed its file in between the last check and the swap, the names are swapped straight
 *   back, microseconds later, so that program never finds a file without its own bytes);
 * - 4 no exchange here (nothing done);
 * - 5 another program kept the file open for writing for BUSY_S (nothing done);
 * - 6 swapped, but a program that opened the replaced file kept it open for writing for BUSY_S;
 * - 7 swapped; this file system (or owner) allows no lease, so writers could not be watched.
 * Writers are watched with a read lease (fcntl F_SETLEASE): the kernel grants it only while no process has the file
 * open for writing, and a process that opens it for writing while we hold it waits in `open` and signals us. So the
 * lease is taken first (waiting for writers to close), the path checked again, the names swapped (the path first: a
 * file watcher such as VS Code's sees one "changed" event for it, where the other order reads as created-then-deleted
 * and is dropped), the lease held GRACE_S more for an `open` that found the file just before the swap, and released;
 * when one came, the server waits until it closed the file again. Afterwards nobody writes to the replaced file, so
 * what the caller reads from it is final.
 * It ends when this process closes its end (or dies).
 */
const SERVER = [
  'use POSIX qw(mkfifo EAGAIN); use Fcntl qw(O_RDONLY O_NOFOLLOW O_NONBLOCK); use Time::HiRes qw(time sleep);',
  'my ($d, $n) = @ARGV; my ($GRACE_S, $BUSY_S) = (0.0003, 2);',
  // A lease break on the old file signals USR1, on ours USR2 (F_SETSIG), so the server knows which one a writer opened.
  'my ($bo, $bn) = (0, 0); $SIG{USR1} = sub { $bo = 1 }; $SIG{USR2} = sub { $bn = 1 };',
  'mkfifo("$d/q", 0600) or exit 1; mkfifo("$d/a", 0600) or exit 1;',
  'open(my $q, "<", "$d/q") or exit 1; open(my $a, ">", "$d/a") or exit 1;',
  'unlink("$d/q", "$d/a"); rmdir($d); select($a); $| = 1; $/ = "\\0";',
  'sub lease { my ($f, $t) = @_; return $f && fcntl($f, 1024, $t) }',
  'sub quiet { my ($f, $until) = @_; until (lease($f, 0)) { return 0 if $! != EAGAIN || time > $until; sleep(0.0005) } return 1 }',
  'sub nap { my $end = time + $_[0]; while ((my $left = $end - time) > 0) { sleep($left) } }',
  'sub same { my ($p, $i, $z) = @_; my @s = lstat($p); return @s && -f _ && $s[1] == $i && $s[7] == $z }',
  'sub watch { my ($p, $i, $sig) = @_; my $f; return undef unless sysopen($f, $p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);',
  '  return undef unless (stat($f))[1] == $i && fcntl($f, 10, $sig); return $f }',
  'sub done { for my $f (@_) { next unless $f; lease($f, 2); close($f) } }',
  'sub swap { return syscall($n, -100, $_[0], -100, $_[1], 2) == 0 }',
  'while (defined(my $t = <$q>)) { my ($p, $i, $z, $m) = map { scalar <$q> } 1 .. 4; last unless defined $m; chomp($t, $p, $i, $z, $m);',
  '  unless (same($p, $i, $z)) { print 3; next }',
  '  my $o = (lstat($t))[1]; my $f = watch($p, $i, 10); my $g = $f && watch($t, $o, 12);',
  '  $bo = 0; my $held = $f && $g && quiet($f, time + $BUSY_S);',
  '  if ($f && $g && !$held && $! == EAGAIN) { done($f, $g); print 5; next }',
  '  $held &&= lease($g, 0); $bn = 0;',
  // Held: no program has the file open for writing, and one that opens it now waits. The caller compares the bytes.
  '  if ($held) { print "L"; my $go = <$q>; last unless defined $go; chomp($go); if ($go ne "g") { done($f, $g); print 3; next } }',
  '  if (($bo && $m eq "j") || !same($p, $i, $z)) { done($f, $g); print 3; next }',
  '  unless (swap($p, $t)) { done($f, $g); print 4; next }',
  // Another program renamed its file in between the last check and the swap: straight back, microseconds later. When
  // the path no longer holds ours either (this process was held up and the program renamed again), its earlier file
  // stays at our name and the caller reads it ("swapped": the file there is not the one it read).
  '  my @r = lstat($t); if (!@r || $r[1] != $i) { my $back = (lstat($p))[1] == $o && swap($p, $t); done($f, $g); print($back ? 3 : 0); next }',
  '  unless ($held) { done($f, $g); print 7; next }',
  '  nap($GRACE_S);',
  // A rewriter found the old file just before the swap (and waits in open): the old file goes back on the path before
  // it writes, unless another writer already opened ours. An appender goes on; the caller carries what it appends.
  '  if ($m eq "j" && $bo && !$bn && (lstat($p))[1] == $o && swap($p, $t)) { done($f, $g); print 3; next }',
  '  done($g); my $ok = 1; my $until = time + $BUSY_S;',
  '  while ($bo) { lease($f, 2); $bo = 0; unless (quiet($f, $until)) { $ok = 0; last } nap($GRACE_S) }',
  '  done($f); print($ok ? 0 : 6); }',
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
  // Loaded here, on the first exchange: node:child_process (and node:net under it) costs every CLI run ~10 ms to load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof ChildProcess;
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

export interface ExchangeOptions {
  /**
   * Called while no other program has the file open for writing (and one that opens it waits): whether it still holds
   * the bytes the edit was made from. False: nothing is done ('changed').
   */
  unchanged?: () => boolean;
  /**
   * 'append' (a line file): a program that opens the old file for writing just before the swap writes to it after,
   * and the caller carries what it wrote; 'rewrite' (a JSON file rewritten whole): the swap is not made, or undone.
   */
  writers?: 'append' | 'rewrite';
}

/**
 * Swaps `tmp` and `path` when `path` still names inode `ino` holding `size` bytes (both in one folder). The outcome is read from the
 * name we own when the server ends abnormally, so a server killed mid-way never leaves the caller guessing.
 */
export function exchangeIfSame(tmp: string, path: string, ino: number, size: number, options: ExchangeOptions = {}): ExchangeOutcome {
  const nr = RENAMEAT2[process.arch];
  if (process.platform !== 'linux' || nr === undefined || !Number.isSafeInteger(ino) || !Number.isSafeInteger(size) || server === null) return 'unsupported';
  if (tmp.includes('\0') || path.includes('\0')) return 'unsupported';
  server ??= start(nr);
  const s = server;
  if (!s) return 'unsupported';
  let ours: number;
  try { ours = nodeFs.lstatSync(tmp).ino; } catch { return 'unsupported'; }
  const mode = options.writers === 'rewrite' ? 'j' : 'a';
  try { nodeFs.writeSync(s.ask, Buffer.from(`${tmp}\0${path}\0${ino}\0${size}\0${mode}\0`)); } catch { stop(s); return 'unsupported'; }
  let r = reply(s, 10_000);
  if (r === 0x4c) {
    // Held: the caller compares; the server waits for its word (a throwing compare counts as "changed").
    let same = false;
    try { same = options.unchanged ? options.unchanged() : true; } catch { same = false; }
    try { nodeFs.writeSync(s.ask, Buffer.from(same ? 'g\0' : 'n\0')); } catch { stop(s); return 'unsupported'; }
    r = reply(s, 10_000);
  }
  if (r === 0x30 || r === 0x36 || r === 0x37) return 'exchanged';
  if (r === 0x33) return 'changed';
  if (r === 0x34) return 'unsupported';
  if (r === 0x35) return 'busy';
  // No answer: the server is stopped for good, and whether it swapped is told by the name we own.
  stop(s);
  try { return nodeFs.lstatSync(tmp).ino === ours ? 'unsupported' : 'exchanged'; } catch { return 'unsupported'; }
}

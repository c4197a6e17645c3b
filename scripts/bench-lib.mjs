// Measurement helpers shared by the bench scripts.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/** The median of a list of numbers. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// CPU time of finished children (Linux /proc): on a busy machine wall time is mostly waiting; CPU time is the work.
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU milliseconds (user + system) of this process's finished children; undefined where /proc is not there. */
export function childrenCpuMs() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK; // cutime + cstime
  } catch {
    return undefined;
  }
}

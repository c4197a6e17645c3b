// A file system that fails at step k: every system call a guarded write makes is counted.
import { nodeSyscalls, type WriteSyscalls } from '../../../src/core/base/guardedWrite';

/** System calls that fail with `code` at call number `k` (counting every call), and after a "kill" fail forever. */
export function failingAt(k: number, code: string): WriteSyscalls & { calls: number } {
  const sys = { ...nodeSyscalls, calls: 0 } as WriteSyscalls & { calls: number };
  let dead = false;
  for (const name of Object.keys(nodeSyscalls) as Array<keyof WriteSyscalls>) {
    const real = nodeSyscalls[name] as (...a: unknown[]) => unknown;
    (sys as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
      if (dead || ++sys.calls === k) {
        // A killed process's descriptors are closed by the system: a simulated kill closes them too.
        if (name === 'closeSync') try { nodeSyscalls.closeSync(a[0] as number); } catch { /* closed */ }
        if (code === 'KILL') dead = true;
        throw Object.assign(new Error(`${code} (injected)`), { code });
      }
      return real(...a);
    };
  }
  return sys;
}


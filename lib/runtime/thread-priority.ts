import fs from 'node:fs';
import os from 'node:os';

/**
 * Lowers the calling thread's priority to the nice value `nice` (nothing for 0 or less). On Linux
 * a thread's id (from /proc/thread-self) is a pid to setpriority, and lowering one's own priority
 * needs no privilege; elsewhere, or when refused, the thread keeps its priority.
 */
export function lowerThisThread(nice: number): void {
  if (!(nice > 0)) return;
  try {
    os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // No /proc/thread-self, or the value refused.
  }
}

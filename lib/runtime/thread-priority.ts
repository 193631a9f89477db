import fs from 'node:fs';
import os from 'node:os';
import type { Sql } from 'postgres';

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

/**
 * Lowers the priority of the PostgreSQL backends serving connections named `applicationName`
 * to `nice` (a database on this machine: the embedded one). What they do for that thread then
 * gives way as the thread does. A backend not ours to change, or gone, keeps its priority.
 */
export async function lowerBackends(sql: Sql, applicationName: string, nice: number): Promise<void> {
  if (!(nice > 0)) return;
  const backends = await sql<{ pid: number }[]>`select pid from pg_stat_activity where application_name = ${applicationName}`;
  for (const { pid } of backends) {
    try {
      if (os.getPriority(pid) < nice) os.setPriority(pid, nice);
    } catch {
      // Gone, or not ours to change.
    }
  }
}

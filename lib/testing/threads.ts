import fs from 'node:fs';

/** The nice value of each thread of this process (Linux: field 19 of each thread's stat). */
export function threadNices(): number[] {
  return fs.readdirSync('/proc/self/task').map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

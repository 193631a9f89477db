/** Operational log lines go to stderr, so CLI stdout carries nothing but its JSON answer. */
export function log(line: string): void {
  process.stderr.write(`[vitrine] ${line}\n`);
}

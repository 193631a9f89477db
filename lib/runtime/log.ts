/**
 * A server whose parent died (a test runner killed, a terminal closed) has lost the reading end
 * of its stdout and stderr: every write then fails with EPIPE. Unhandled, each failure goes to the
 * uncaughtException handler (Next.js installs one), which logs it to stderr, which fails again:
 * a loop that took a whole core and starved everything else. Errors of these streams are
 * dropped instead; the lines are lost either way.
 */
export function ignoreBrokenStdio(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}

/** Operational log lines go to stderr, so CLI stdout carries nothing but its JSON answer. */
export function log(line: string): void {
  process.stderr.write(`[vitrine] ${line}\n`);
}

/**
 * An error as one readable line, whatever shape it comes in: pg-boss emits plain objects (which
 * `String()` makes "[object Object]"), a refused connection may be an AggregateError with no
 * message of its own, PostgreSQL's errors carry a code.
 */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return [...new Set(error.errors.map(describeError))].join('; ');
  if (error === null || typeof error !== 'object') return String(error);
  const { message, code, queue } = error as { message?: unknown; code?: unknown; queue?: unknown };
  let text = typeof message === 'string' && message !== '' ? message : error instanceof Error ? error.name : jsonOf(error);
  if (typeof code === 'string' && code !== '' && !text.includes(code)) text += ` (${code})`;
  if (typeof queue === 'string') text += ` [queue ${queue}]`;
  return text;
}

function jsonOf(value: object): string {
  try {
    return JSON.stringify(value)?.slice(0, 300) ?? 'unknown error';
  } catch {
    return 'unknown error';
  }
}

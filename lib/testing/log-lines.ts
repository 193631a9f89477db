/** A JSON log line of a server (lib/runtime/log.ts): pino's fields and the event's. */
export type LogLine = { level: number; time: string; pid: number; msg: string; [field: string]: unknown };

/** The JSON log lines in a process's output (other lines, such as the framework's own, left out). */
export function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((text) => {
    if (!text.startsWith('{')) return [];
    try {
      const line = JSON.parse(text) as LogLine;
      return typeof line.msg === 'string' && typeof line.level === 'number' ? [line] : [];
    } catch {
      return [];
    }
  });
}

import { format, stripVTControlCharacters } from 'node:util';
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import pino from 'pino';
import { processWide } from '@/lib/process-wide';
import { currentRequest } from './request-context';
import { readLogLevel, type LogLevelSetting } from './settings';

// The service's log: one JSON line per event on stderr, in pino's format (`level` as a number,
// `time`, `pid`, `hostname`, `msg`, then the event's fields), so CLI stdout carries nothing but
// its JSON answer. In a terminal (stderr a TTY) the same events read as `[vitrine] message
// key=value`. A line logged while a request is answered carries its `requestId` (and `shopId`
// once known). LOG_LEVEL: debug, info (default), warn, error, silent.

export type LogFields = Record<string, unknown>;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type Logger = {
  write: (level: LogLevel, message: string, fields?: LogFields) => void;
  enabled: (level: LogLevel) => boolean;
};

const RANKS: Record<LogLevelSetting, number> = { debug: 20, info: 30, warn: 40, error: 50, silent: Infinity };

// Threads write to the process's stderr through the main thread, never a TTY of their own: they
// take the main thread's choice of format, handed to every thread it starts (and theirs).
const PRETTY_KEY = 'vitrine.log-pretty';
if (isMainThread) setEnvironmentData(PRETTY_KEY, Boolean(process.stderr.isTTY));

/** The fields of the request being answered, if any. */
function requestFields(): LogFields {
  const context = currentRequest();
  if (!context) return {};
  return context.shopId === undefined ? { requestId: context.requestId } : { requestId: context.requestId, shopId: context.shopId };
}

/** A field's value as the terminal shows it. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value === '' || /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (value instanceof Error) return `\n${value.stack ?? value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** One event as a terminal line (an error's stack on the lines after it). */
export function prettyLine(level: LogLevel, message: string, fields: LogFields = {}): string {
  const tail = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .sort(([, a], [, b]) => Number(a instanceof Error) - Number(b instanceof Error))
    .map(([key, value]) => ` ${key}=${shown(value)}`)
    .join('');
  return `[vitrine]${level === 'info' ? '' : ` ${level.toUpperCase()}`} ${message}${tail}\n`;
}

/** A logger writing events from `level` up to `stream`, as JSON lines or, `pretty`, a terminal's. */
export function makeLogger({ level, pretty, stream }: { level: LogLevelSetting; pretty: boolean; stream: { write: (line: string) => unknown } }): Logger {
  const enabled = (wanted: LogLevel) => RANKS[wanted] >= RANKS[level];
  if (pretty) {
    return {
      enabled,
      write: (wanted, message, fields) => {
        if (enabled(wanted)) stream.write(prettyLine(wanted, message, { ...fields, ...requestFields() }));
      },
    };
  }
  // process.stderr's own write: synchronous for files and pipes on Linux, whole lines from threads.
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err },
      mixin: requestFields,
    },
    stream as pino.DestinationStream,
  );
  return {
    enabled,
    write: (wanted, message, fields) => (fields ? logger[wanted](fields, message) : logger[wanted](message)),
  };
}

function makeThreadLogger(): Logger {
  const { level, refused } = readLogLevel();
  const pretty = isMainThread ? Boolean(process.stderr.isTTY) : getEnvironmentData(PRETTY_KEY) === true;
  const logger = makeLogger({ level, pretty, stream: process.stderr });
  if (refused !== undefined && isMainThread) logger.write('warn', `LOG_LEVEL ${JSON.stringify(refused)} names no level (debug, info, warn, error, silent): info is used`);
  return logger;
}

// One per thread (each writes whole lines to the same stderr).
const LOGGER = processWide<Logger>('logger');
const logger = () => LOGGER.getOrMake(makeThreadLogger);

/** An event of the service, at `info` unless said; an error goes under `err` (its stack is kept). */
export function log(message: string, fields?: LogFields, level: LogLevel = 'info'): void {
  logger().write(level, message, fields);
}

/** Whether events at `level` are written (to skip making costly fields). */
export function logs(level: LogLevel): boolean {
  return logger().enabled(level);
}

/**
 * What the framework and libraries print with `console` (Next.js's start line, an error it caught
 * while rendering a page) goes to the log as events too, so a server's output is nothing but log
 * lines (the CLI keeps its console: its stdout is its answer).
 */
export function logConsole(): void {
  const forward =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      // Colours and the framework's padding have no place in a JSON line.
      const message = stripVTControlCharacters(format(...args)).trim();
      if (message !== '') log(message, undefined, level);
    };
  console.log = console.info = forward('info');
  console.debug = forward('debug');
  console.warn = forward('warn');
  console.error = forward('error');
}

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

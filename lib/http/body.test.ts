import { describe, expect, it } from 'vitest';
import { memberValue, readJsonBody, readScannedBody } from './body';
import { AppError } from './errors';

const request = (body: BodyInit | null, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  new Request('http://localhost/import/categories', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('readJsonBody', () => {
  it('parses JSON and keeps the raw bytes', async () => {
    const { raw, json } = await readJsonBody(request('{"a":[1,2]}'), 100);
    expect(json).toEqual({ a: [1, 2] });
    expect(raw.toString()).toBe('{"a":[1,2]}');
  });

  it('accepts a charset parameter and any case', async () => {
    const { json } = await readJsonBody(request('{}', { 'Content-Type': 'Application/JSON; charset=utf-8' }), 100);
    expect(json).toEqual({});
  });

  it('refuses other content types with UNSUPPORTED_MEDIA_TYPE', async () => {
    const error = await failure(readJsonBody(request('{}', { 'Content-Type': 'text/plain' }), 100));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const missing = await failure(readJsonBody(request('{}', {}), 100));
    expect(missing.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a declared length over the limit without reading', async () => {
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('{}'));
        controller.close();
      },
    });
    const error = await failure(readJsonBody(request(body, { 'Content-Type': 'application/json', 'Content-Length': '101' }), 100));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toBe('Request body exceeds the limit of 100 bytes');
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a stream at the limit', async () => {
    let chunks = 0;
    const body = new ReadableStream({
      pull(controller) {
        chunks++;
        controller.enqueue(new Uint8Array(40).fill(32));
        if (chunks > 1000) controller.close();
      },
    });
    const error = await failure(readJsonBody(request(body), 100));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(chunks).toBeLessThan(10);
  });

  it('names malformed JSON and an empty body', async () => {
    const bad = await failure(readJsonBody(request('{"a":'), 100));
    expect(bad.code).toBe('VALIDATION');
    expect(bad.message).toMatch(/^Request body is not valid JSON: /);
    const empty = await failure(readJsonBody(request(''), 100));
    expect(empty.message).toBe('Request body is empty; expected a JSON object');
  });

  it('scans a body without parsing it: members by key, the same faults named with their byte', async () => {
    const { raw, members } = await readScannedBody(request('{"shop_id": "s", "items": [{"id": 1}, 2]}'), 100);
    expect(memberValue(raw, members!, 'shop_id')).toBe('s');
    expect(memberValue(raw, members!, 'missing')).toBeUndefined();
    expect(Array.from(members!.get('items')!.elements!)).toEqual([27, 36, 38, 39]);
    expect((await readScannedBody(request('[1]'), 100)).members).toBeNull();
    const bad = await failure(readScannedBody(request('{"a":'), 100));
    expect(bad.code).toBe('VALIDATION');
    expect(bad.message).toBe('Request body is not valid JSON: Unexpected end of JSON at byte 5');
    const tooLarge = await failure(readScannedBody(request('{"a":"'.padEnd(200, 'x') + '"}'), 100));
    expect(tooLarge.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { ENCODED_BODY_HEADER, jsonChunksResponse, madeBody } from './respond';

const chunks = () => [Buffer.from('{"a":'), new TextEncoder().encode(JSON.stringify('x'.repeat(3000))), Buffer.from('}')];

it('gives the chunks as made to the direct path, and the same body joined to a reader of the Response', async () => {
  const response = jsonChunksResponse(chunks(), null);
  const made = madeBody(response)!;
  expect(made.gzipped).toBeNull();
  expect(Buffer.concat(made.chunks).toString()).toBe(`{"a":"${'x'.repeat(3000)}"}`);
  expect(response.headers.get(ENCODED_BODY_HEADER)).toBeNull();
  expect(await response.text()).toBe(`{"a":"${'x'.repeat(3000)}"}`);
});

it('gives the gzip member when the client takes gzip, and the Response says it is encoded', async () => {
  const response = jsonChunksResponse(chunks(), 'gzip, br');
  const made = madeBody(response)!;
  expect(made.chunks).toHaveLength(0);
  const member = await made.gzipped!;
  expect(zlib.gunzipSync(member).toString()).toBe(`{"a":"${'x'.repeat(3000)}"}`);
  expect(response.headers.get(ENCODED_BODY_HEADER)).toBe('gzip');
  expect(Buffer.from(await response.arrayBuffer()).equals(member)).toBe(true);
});

it('leaves a small body unencoded whatever the client takes, and knows no other Response', async () => {
  const response = jsonChunksResponse([Buffer.from('{"b":1}')], 'gzip');
  expect(madeBody(response)!.gzipped).toBeNull();
  expect(await response.json()).toEqual({ b: 1 });
  expect(madeBody(Response.json({ b: 1 }))).toBeUndefined();
});

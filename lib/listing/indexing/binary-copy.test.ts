import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryCopyReader, bool, epochMs, float8, float8OrNaN, textOrNull, type BinaryRow } from './binary-copy';

/** A binary COPY stream as PostgreSQL writes it, of (text, float8, bool) rows; null is NULL. */
function stream(rows: [string | null, number | null, boolean][]): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from([0, 0, 0, 3, 9, 9, 9])]; // flags; 3 bytes of header extension
  const int32 = (value: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(value);
    return bytes;
  };
  for (const [text, number, flag] of rows) {
    parts.push(Buffer.from([0, 3]));
    if (text === null) parts.push(int32(-1));
    else parts.push(int32(Buffer.byteLength(text)), Buffer.from(text));
    if (number === null) parts.push(int32(-1));
    else {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleBE(number);
      parts.push(int32(8), bytes);
    }
    parts.push(int32(1), Buffer.from([flag ? 1 : 0]));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const ROWS: [string | null, number | null, boolean][] = [
  ['p1', 10.5, true],
  [null, null, false],
  ['ünïcødé ✓', -0.1, true],
  ['', 1e300, false],
];

function read(chunks: Buffer[]) {
  const seen: unknown[] = [];
  const reader = new BinaryCopyReader(3, (row: BinaryRow) => seen.push([textOrNull(row, 0), float8OrNaN(row, 1), bool(row, 2)]));
  for (const chunk of chunks) reader.push(chunk);
  reader.finish();
  return seen;
}

const expected = ROWS.map(([text, number, flag]) => [text, number ?? NaN, flag]);

describe('BinaryCopyReader', () => {
  it('reads every row and field, NULLs included', () => {
    expect(read([stream(ROWS)])).toEqual(expected);
  });

  it('reads the same rows however the stream is cut into chunks', () => {
    const bytes = stream(ROWS);
    for (let cut = 1; cut < bytes.length; cut++) expect(read([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(expected);
    expect(read(Array.from(bytes, (byte) => Buffer.from([byte])))).toEqual(expected);
  });

  it('refuses a stream that is not binary COPY, has the wrong field count or ends early', () => {
    expect(() => read([Buffer.from('id\tname\n'.repeat(4))])).toThrow('not a binary COPY stream');
    const wide = new BinaryCopyReader(2, () => undefined);
    expect(() => wide.push(stream(ROWS))).toThrow('COPY row has 3 fields, 2 expected');
    const bytes = stream(ROWS);
    expect(() => read([bytes.subarray(0, bytes.length - 2)])).toThrow('binary COPY stream ended early');
  });

  it('reads doubles exactly', () => {
    const row = { bytes: Buffer.alloc(8), start: Int32Array.of(0), length: Int32Array.of(8) };
    row.bytes.writeDoubleBE(0.1 + 0.2);
    expect(float8(row, 0)).toBe(0.1 + 0.2);
  });
});

describe('epochMs', () => {
  const field = (microseconds: bigint) => {
    const row = { bytes: Buffer.alloc(8), start: Int32Array.of(0), length: Int32Array.of(8) };
    row.bytes.writeBigInt64BE(microseconds);
    return row;
  };
  // What `(extract(epoch from t) * 1000)::float8` gives: the exact decimal, rounded once.
  const viaDecimal = (sinceEpoch: bigint) => {
    const sign = sinceEpoch < 0n ? '-' : '';
    const magnitude = sinceEpoch < 0n ? -sinceEpoch : sinceEpoch;
    return Number(`${sign}${magnitude / 1000n}.${String(magnitude % 1000n).padStart(3, '0')}`);
  };
  const BEFORE_2000 = 946_684_800_000_000n;
  const SAFE = 2n ** 53n - 1n;

  it('gives the double PostgreSQL computes in numeric, for every time from 1715 to 2255', () => {
    fc.assert(
      fc.property(fc.bigInt(-SAFE + BEFORE_2000, SAFE), (sinceEpoch) => {
        expect(epochMs(field(sinceEpoch - BEFORE_2000), 0)).toBe(viaDecimal(sinceEpoch));
      }),
      { numRuns: 20_000 },
    );
    expect(epochMs(field(0n), 0)).toBe(946_684_800_000);
    expect(epochMs(field(-BEFORE_2000 + 1n), 0)).toBe(0.001);
    expect(epochMs(field(-BEFORE_2000 - 1_500n), 0)).toBe(-1.5);
  });

  it("reads PostgreSQL's infinities", () => {
    expect(epochMs(field(2n ** 63n - 1n), 0)).toBe(Infinity);
    expect(epochMs(field(-(2n ** 63n)), 0)).toBe(-Infinity);
  });
});

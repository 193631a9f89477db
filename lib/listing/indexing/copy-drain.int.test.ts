import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { drain } from './index-source';

// A COPY read by `drain` leaves its connection usable: postgres.js pauses the socket when a chunk
// finds the stream's buffer full, and a COPY whose end arrives in the same read as its last chunks
// used to leave it paused, the next statement's answer unread (the soak's stalled pool).

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

it('answers the next statements on the connection after COPYs of every size, read at once or late', async () => {
  // One connection: a stalled one would hang the next query.
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    for (const kilobytes of [1, 12, 20, 40, 60, 100, 300]) {
      for (const lateMs of [0, 50]) {
        let received = 0;
        const step = (async () => {
          await sql.begin(async (tx) => {
            const stream = await tx.unsafe(`copy (select repeat('x', 1000) from generate_series(1, ${kilobytes})) to stdout`).readable();
            // Read late: every chunk (and the end) has arrived and waits in the socket and the stream.
            if (lateMs) await new Promise((resolve) => setTimeout(resolve, lateMs));
            await drain(stream, (chunk) => (received += chunk.length));
          });
          return sql`select 1 as one`;
        })();
        // The COMMIT and the select after it are answered on the same connection.
        const answer = await Promise.race([step, new Promise((resolve) => setTimeout(() => resolve('stalled'), 3_000))]);
        expect(received).toBe(kilobytes * 1001);
        expect(answer, `after ${kilobytes} KB read ${lateMs} ms late`).toEqual([{ one: 1 }]);
      }
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}, 60_000);

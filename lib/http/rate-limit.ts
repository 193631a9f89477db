import type { Sql } from 'postgres';
import { AppError } from './errors';

/**
 * Counts one request against `key` in a sliding minute kept in PostgreSQL, so every web process
 * shares the count. Throws RATE_LIMITED with the seconds until the oldest hit leaves the window.
 */
export async function consumeRateLimit(sql: Sql, key: string, perMinute: number): Promise<void> {
  const retryAfter = await sql.begin(async (tx) => {
    await tx`insert into rate_limits (key, hits) values (${key}, '{}') on conflict (key) do nothing`;
    const [row] = await tx<{ n: number; wait: number | null }[]>`
      update rate_limits
         set hits = array(select h from unnest(hits) h where h > now() - interval '1 minute' order by h)
       where key = ${key}
   returning cardinality(hits) as n,
             extract(epoch from (hits[1] + interval '1 minute' - now()))::float8 as wait`;
    if (row.n >= perMinute) return Math.max(1, Math.ceil(row.wait ?? 60));
    await tx`update rate_limits set hits = array_append(hits, now()) where key = ${key}`;
    return 0;
  });
  if (retryAfter > 0) {
    throw new AppError('RATE_LIMITED', `Rate limit of ${perMinute} requests per minute exceeded; retry in ${retryAfter} s`, {
      retryAfterSeconds: retryAfter,
    });
  }
}

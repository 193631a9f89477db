import { productItem } from './applied-imports';
import { importStatus, type ImportStatus } from './api';
import type { TestShop } from './factories';

export type StreamResult = {
  /** Import ids answered 204, with the product each one added. */
  accepted: { importId: number; productId: string }[];
  /** How many answers of each status (and `error` for requests that got no answer). */
  statuses: Record<string, number>;
  /** Answers that were neither 204 nor a 503 with Retry-After and the error body. */
  unexpected: string[];
};

/**
 * Sends small product imports to a server one after another until stopped, each adding a product
 * of its own (`<prefix>-<n>`), so what was accepted can be checked afterwards: every accepted
 * import done, and its product there. A 503 must carry `Retry-After` and the error body.
 */
export function importStream(url: () => string, shop: TestShop, prefix: string) {
  const result: StreamResult = { accepted: [], statuses: {}, unexpected: [] };
  let stopped = false;
  let n = 0;
  const count = (key: string) => (result.statuses[key] = (result.statuses[key] ?? 0) + 1);
  const running = (async () => {
    while (!stopped) {
      const productId = `${prefix}-${n++}`;
      let response: Response;
      try {
        response = await fetch(`${url()}/import/products`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...shop, items: [productItem(productId, { name: `Stream ${productId}` })] }),
          signal: AbortSignal.timeout(20_000),
        });
      } catch {
        // The server is gone (killed) or not yet listening: no answer, nothing accepted.
        count('error');
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      count(String(response.status));
      // A 204's headers are its acceptance: what follows may be cut by a killed server.
      if (response.status === 204) result.accepted.push({ importId: Number(response.headers.get('x-import-id')), productId });
      const text = await response.text().catch(() => '(the body was cut off)');
      if (response.status === 204) continue;
      if (response.status !== 503 || response.headers.get('retry-after') === null || !/^\{"status":"error","payload":\{"message":/.test(text)) {
        result.unexpected.push(`${response.status} ${text.slice(0, 200)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    result,
    stop: async () => {
      stopped = true;
      await running;
      return result;
    },
  };
}

/** Waits until every accepted import is done (or failed), and gives their records. */
export async function settledImports(url: string, shop: TestShop, importIds: number[], timeoutMs = 60_000): Promise<ImportStatus[]> {
  const deadline = Date.now() + timeoutMs;
  const records: ImportStatus[] = [];
  for (const id of importIds) {
    for (;;) {
      // Right after an outage a request may still meet a connection that died with the database:
      // a 503 with Retry-After, which a client retries.
      const record = await importStatus(url, shop, id).catch((error: Error) => {
        if (/HTTP 503/.test(error.message) && Date.now() < deadline) return null;
        throw error;
      });
      if (record === null) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      if (record.status === 'done' || record.status === 'failed') {
        records.push(record);
        break;
      }
      if (Date.now() > deadline) throw new Error(`import ${id} still ${record.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return records;
}

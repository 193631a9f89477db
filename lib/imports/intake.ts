import { copyBinaryRow } from '@/lib/catalog/copy-rows';
import { SUMMARY_KEYS } from '@/lib/catalog/sent-items';
import { memberValue, readScannedBody } from '@/lib/http/body';
import { assertNotLockedOut, clientAddress, countingRefusal } from '@/lib/http/auth-failures';
import { AppError } from '@/lib/http/errors';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import { describeZodError } from '@/lib/http/zod-message';
import { enqueue, importWaker } from '@/lib/jobs';
import type { AppContext } from '@/lib/runtime/context';
import { authenticateShop } from '@/lib/shops/authenticate';
import { announceArrival, compressBody, handOver, scanOnThread } from './pipeline';
import { operationFor, operations, type ImportMethod, type Resource } from './operations';
import { Phases } from '@/lib/runtime/phases';
import { ProductMethod, WebhookUrl } from './schemas';
import { metrics } from '@/lib/runtime/metrics';
import { log } from '@/lib/runtime/log';

const SHOP_INTAKE_LOCK = 7_300;

/**
 * Takes an import request as CONTRACT §3 orders it: body limits, credentials, the shop's rate
 * limit, envelope checks; then stores the raw body and its import record in one transaction,
 * with the job that wakes an applier unless this process applies imports itself (it then wakes
 * its own). Once this returns, no crash loses the import.
 */
export async function acceptImport(ctx: AppContext, req: Request, resource: Resource, httpMethod: ImportMethod): Promise<{ importId: number }> {
  const { limits } = ctx.settings;
  const address = clientAddress(req);
  if (limits.enabled) assertNotLockedOut(address, limits.authFailuresPerMinute);
  // Compressed for storage on the thread pool while this thread checks it.
  let compressed: ReturnType<typeof compressBody> | undefined;
  const phases = new Phases();
  // The body is checked, not parsed: the applier parses only the items it must.
  const { raw, members } = await readScannedBody(req, limits.enabled ? limits.bodyBytes : Number.MAX_SAFE_INTEGER, {
    elementKeys: SUMMARY_KEYS,
    scanAside: scanOnThread,
    onBytes: (bytes) => {
      phases.mark('read');
      compressed = compressBody(bytes);
      compressed.catch(() => {});
    },
  });
  phases.mark('scan');
  if (!members) throw new AppError('VALIDATION', 'Request body must be a JSON object with shop_id and shop_secret');
  const json = (key: string) => memberValue(raw, members, key);
  const shop = await countingRefusal(address, authenticateShop(ctx.sql, json('shop_id'), json('shop_secret')));
  if (limits.enabled) await consumeRateLimit(ctx.sql, `writes:${shop.id}`, limits.writesPerMinute);
  phases.mark('authenticate');

  let method = httpMethod;
  const requested = json('method');
  if (resource === 'products' && httpMethod === 'POST' && requested !== undefined && requested !== null) {
    const parsed = ProductMethod.safeParse(requested);
    if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
    method = parsed.data;
  }
  const operation = operationFor(resource, method);
  if (!operation) throw new AppError('VALIDATION', `${method} is not supported on /import/${resource}`);
  const field = operations[operation].field;
  const list = members.get(field);
  if (list === undefined) throw new AppError('VALIDATION', `${field} is required`);
  if (list.elements === undefined) throw new AppError('VALIDATION', `${field} must be an array`);
  const itemsTotal = list.elements.length / 2;
  let webhook: string | null = null;
  const requestedWebhook = json('webhook');
  // Null is none; anything else, "" included, must be an http(s) URL (CONTRACT §3).
  if (requestedWebhook !== undefined && requestedWebhook !== null) {
    const parsed = WebhookUrl.safeParse(requestedWebhook);
    if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
    webhook = parsed.data;
  }

  const body = compressed ?? compressBody(raw);
  body.catch(() => {}); // heard when awaited below
  const wake = importWaker();
  let kept: Awaited<typeof body> | undefined;
  const importId = await ctx.sql.begin(async (tx) => {
    // Ids of one shop must commit in the order they are given out, or the applier could see a
    // later import before an earlier one that is still writing its body: the shop's lock is
    // taken before the id is (one statement, while the body is still being compressed).
    const [record] = await tx<{ id: number }[]>`
      insert into imports (shop_id, operation, items_total, webhook, body_bytes)
      select ${shop.id}, ${operation}, ${itemsTotal}, ${webhook}, ${raw.length}
        from (select pg_advisory_xact_lock(${SHOP_INTAKE_LOCK}, hashtext(${shop.id}))) as locked
      returning id`;
    const stored = (kept = await body);
    phases.mark('compress');
    await copyBinaryRow(tx, 'import_bodies', ['shop_id', 'import_id', 'body', 'encoding'], [shop.id, record.id, stored.body, stored.encoding]);
    if (!wake) await enqueue(ctx.boss, 'importsApply', { shopId: shop.id }, { tx });
    return record.id;
  });
  phases.mark('store');
  phases.report(`intake ${importId}`);
  metrics().importsAccepted.inc({ operation });
  log('import accepted', { shopId: shop.id, importId, operation, items: itemsTotal, bytes: raw.length });
  // Only a process that applies imports itself can take the body over.
  if (ctx.settings.workers) {
    handOver(importId, { raw, members, stored: kept });
    announceArrival(shop.id);
  }
  wake?.(shop.id);
  return { importId };
}

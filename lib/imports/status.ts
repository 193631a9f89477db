import { readJsonBody } from '@/lib/http/body';
import { assertNotLockedOut, clientAddress, countingRefusal } from '@/lib/http/auth-failures';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { authenticateShop } from '@/lib/shops/authenticate';
import { getImport, parseImportId, presentImport, type ImportRecord } from './import-records';

// POST /import/status: the import record, for the shop that owns it.
export async function readImportStatus(ctx: AppContext, req: Request): Promise<ImportRecord> {
  const { limits } = ctx.settings;
  const address = clientAddress(req);
  // Each guess costs a scrypt, as at intake: failed authentications are limited per address.
  if (limits.enabled) assertNotLockedOut(address, limits.authFailuresPerMinute);
  const { json } = await readJsonBody(req, 64 * 1024);
  const body = (json ?? {}) as Record<string, unknown>;
  const shop = await countingRefusal(address, authenticateShop(ctx.sql, body.shop_id, body.shop_secret));
  if (body.import_id === undefined || body.import_id === null || body.import_id === '') {
    throw new AppError('VALIDATION', 'import_id is required');
  }
  const id = parseImportId(body.import_id);
  if (id === undefined) throw new AppError('VALIDATION', 'import_id must be a positive integer');
  return presentImport(await getImport(ctx, shop.id, id));
}

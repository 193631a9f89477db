import { z } from 'zod';
import { readJsonBody } from '@/lib/http/body';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { authenticateShop } from '@/lib/shops/authenticate';
import { getImport, presentImport, type ImportRecord } from './import-records';

const ImportId = z.coerce
  .number({ error: 'import_id must be an integer' })
  .int('import_id must be an integer')
  .positive('import_id must be an integer');

// POST /import/status: the import record, for the shop that owns it.
export async function readImportStatus(ctx: AppContext, req: Request): Promise<ImportRecord> {
  const { json } = await readJsonBody(req, 64 * 1024);
  const body = (json ?? {}) as Record<string, unknown>;
  const shop = await authenticateShop(ctx.sql, body.shop_id, body.shop_secret);
  if (body.import_id === undefined || body.import_id === null || body.import_id === '') {
    throw new AppError('VALIDATION', 'import_id is required');
  }
  const id = ImportId.safeParse(body.import_id);
  if (!id.success) throw new AppError('VALIDATION', describeZodError(id.error));
  return presentImport(await getImport(ctx, shop.id, id.data));
}

import { AppError } from '@/lib/http/errors';
import { listImports, parseImportId } from '@/lib/imports/import-records';
import { shopRoute } from '@/lib/staff/shop-route';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /admin/api/shops/:shopId/imports – the shop's imports, newest first
export const GET = shopRoute(async (req, { ctx, shopId }) => {
  const given = new URL(req.url).searchParams.get('before');
  const before = given === null || given === '' ? undefined : parseImportId(given);
  if (before === undefined && given) throw new AppError('VALIDATION', 'before must be an import id (a positive integer)');
  return Response.json({ imports: await listImports(ctx, shopId, { before, limit: 50 }) });
});

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);

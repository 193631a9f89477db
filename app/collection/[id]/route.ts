import { readCollection } from '@/lib/collections/read-collection';
import { requestOrigin, storefrontParams } from '@/lib/listing/storefront-request';
import { jsonChunksResponse, methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

export const dynamic = 'force-dynamic';

// GET /collection/:id – a curated product collection (spec 4.6)
export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const ctx = appContext();
    const query = await storefrontParams(ctx, req);
    const { id } = await params;
    return jsonChunksResponse([await readCollection(ctx, { id, params: query, headers: req.headers, origin: requestOrigin(req) })], req.headers.get('accept-encoding'));
  });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

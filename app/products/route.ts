import { listProducts } from '@/lib/listing/listing';
import { requestOrigin, storefrontParams } from '@/lib/listing/storefront-request';
import { jsonChunksResponse, methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

export const dynamic = 'force-dynamic';

async function handle(req: Request) {
  return respond(async () => {
    const ctx = appContext();
    const params = await storefrontParams(ctx, req);
    return jsonChunksResponse(await listProducts(ctx, { params, headers: req.headers, origin: requestOrigin(req) }), req.headers.get('accept-encoding'));
  });
}

// GET /products – the product listing (spec 4.7); POST takes the same fields as a JSON body
export const GET = handle;
export const POST = handle;

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET', 'POST']);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

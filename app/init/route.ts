import { initSession } from '@/lib/listing/init-session';
import { storefrontParams } from '@/lib/listing/storefront-request';
import { methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

export const dynamic = 'force-dynamic';

// GET /init – device and session ids for the source platform's mobile SDKs (CONTRACT §4)
export function GET(req: Request) {
  return respond(async () => {
    const ctx = appContext();
    return Response.json(await initSession(ctx, await storefrontParams(ctx, req)));
  });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

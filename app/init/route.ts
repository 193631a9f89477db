import { initSession } from '@/lib/listing/init-session';
import { storefrontParams } from '@/lib/listing/storefront-request';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

export const dynamic = 'force-dynamic';

// GET /init – device and session ids for the source platform's mobile SDKs (CONTRACT §4)
export function GET(req: Request) {
  return respond(async () => {
    const ctx = appContext();
    return Response.json(await initSession(ctx, await storefrontParams(ctx, req)));
  });
}

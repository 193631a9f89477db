import { respond, otherMethods } from '@/lib/http/respond';
import { redocBundle } from '@/lib/openapi/viewer';

export const dynamic = 'force-dynamic';

// GET /docs/redoc.standalone.js – the reference page's viewer, from the installed package
export function GET() {
  return respond(async () => new Response(new Uint8Array(await redocBundle()), { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } }));
}

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);

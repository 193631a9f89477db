import { REFERENCE_PAGE } from '@/lib/openapi/viewer';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /docs – the API reference page (Redoc over /openapi.json)
export function GET() {
  return new Response(REFERENCE_PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

// Any other method: 405 with the error body.
export const { POST, PUT, PATCH, DELETE } = otherMethods(['GET']);

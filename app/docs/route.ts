import { REFERENCE_PAGE } from '@/lib/openapi/viewer';

export const dynamic = 'force-dynamic';

// GET /docs – the API reference page (Redoc over /openapi.json)
export function GET() {
  return new Response(REFERENCE_PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

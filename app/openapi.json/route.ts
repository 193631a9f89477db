import { methodNotAllowed } from '@/lib/http/respond';
import { openApiDocument } from '@/lib/openapi/document';

export const dynamic = 'force-dynamic';

const document = JSON.stringify(openApiDocument());

// GET /openapi.json – the OpenAPI 3.1 document of the public API
export function GET() {
  return new Response(document, { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' } });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

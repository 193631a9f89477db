import { methodNotAllowed } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /healthz – the process serves (the database is not asked: a load balancer restarts on this)
export function GET() {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

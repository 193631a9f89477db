import { errorBody, methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { checkReadiness, describeUnready } from '@/lib/runtime/readiness';

export const dynamic = 'force-dynamic';

// GET /readyz – database reachable, migrations applied, job workers running where enabled; 503 naming what is not
export function GET() {
  return respond(async () => {
    const readiness = await checkReadiness(appContext());
    const headers = { 'Cache-Control': 'no-store' };
    if (readiness.ready) return Response.json({ status: 'ready', checks: readiness.checks }, { headers });
    return Response.json(errorBody(describeUnready(readiness)), { status: 503, headers: { ...headers, 'Retry-After': '5' } });
  });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

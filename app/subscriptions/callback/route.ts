import { methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { receiveEmailEvent } from '@/lib/subscriptions/callback';

// POST /subscriptions/callback – mark an email with a system flag
export function POST(req: Request) {
  return respond(async () => {
    await receiveEmailEvent(appContext(), req);
    return Response.json({ status: 'success' });
  });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['POST']);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

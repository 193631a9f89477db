import { clientAddress } from '@/lib/http/auth-failures';
import { readJsonBody } from '@/lib/http/body';
import { otherMethods, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';
import { overHttps, sessionCookie, sessionTokenFrom } from '@/lib/staff/admin-auth';
import { logIn, logOut } from '@/lib/staff/sessions';

const secure = (req: Request) => overHttps(req.headers, req.url, appContext().settings.publicUrl);

// POST /admin/api/session – staff login
export function POST(req: Request) {
  return respond(async () => {
    const ctx = appContext();
    const { json } = await readJsonBody(req, 16 * 1024);
    const { token, expires } = await logIn(ctx, json, clientAddress(req));
    return Response.json({ status: 'success' }, { headers: { 'Set-Cookie': sessionCookie(token, expires, secure(req)) } });
  });
}

// DELETE /admin/api/session – logout
export function DELETE(req: Request) {
  return respond(async () => {
    await logOut(appContext(), sessionTokenFrom(req.headers.get('cookie'), secure(req)));
    return Response.json({ status: 'success' }, { headers: { 'Set-Cookie': sessionCookie('', null, secure(req)) } });
  });
}

// Any other method: 405 with the error body.
export const { GET, PUT, PATCH } = otherMethods(['POST', 'DELETE']);

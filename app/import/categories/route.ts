import { acceptImport } from '@/lib/imports/intake';
import { importAccepted } from '@/lib/http/import-response';
import { methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

// POST /import/categories – replace the shop's categories tree
export function POST(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'categories', 'POST')).importId));
}

// PUT /import/categories – add or update the listed nodes
export function PUT(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'categories', 'PUT')).importId));
}

// DELETE /import/categories – remove the listed ids
export function DELETE(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'categories', 'DELETE')).importId));
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['POST', 'PUT', 'DELETE']);
export const GET = notAllowed;
export const PATCH = notAllowed;

import { acceptImport } from '@/lib/imports/intake';
import { importAccepted } from '@/lib/http/import-response';
import { methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

// POST /import/locations – replace the shop's locations tree
export function POST(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'locations', 'POST')).importId));
}

// PUT /import/locations – add or update the listed nodes
export function PUT(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'locations', 'PUT')).importId));
}

// DELETE /import/locations – remove the listed ids
export function DELETE(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'locations', 'DELETE')).importId));
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['POST', 'PUT', 'DELETE']);
export const GET = notAllowed;
export const PATCH = notAllowed;

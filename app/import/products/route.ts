import { acceptImport } from '@/lib/imports/intake';
import { importAccepted } from '@/lib/http/import-response';
import { methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

// PUT /import/products – add or update products
export function PUT(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'products', 'PUT')).importId));
}

// PATCH /import/products – the listed products are in stock, every other one is not
export function PATCH(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'products', 'PATCH')).importId));
}

// DELETE /import/products – mark the listed products not in stock
export function DELETE(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'products', 'DELETE')).importId));
}

// POST /import/products – as "method" says, or load the listed items and disable the rest
export function POST(req: Request) {
  return respond(async () => importAccepted((await acceptImport(appContext(), req, 'products', 'POST')).importId));
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['PUT', 'PATCH', 'DELETE', 'POST']);
export const GET = notAllowed;

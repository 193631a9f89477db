import { readImportStatus } from '@/lib/imports/status';
import { methodNotAllowed, respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

// POST /import/status – the record of one import
export function POST(req: Request) {
  return respond(async () => Response.json(await readImportStatus(appContext(), req)));
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['POST']);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

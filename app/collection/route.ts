import { AppError } from '@/lib/http/errors';
import { methodNotAllowed, respond } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /collection – without an id: the error body rather than an HTML page
export function GET() {
  return respond(async () => {
    throw new AppError('VALIDATION', 'Collection id is required: GET /collection/:id');
  });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

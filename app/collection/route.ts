import { AppError } from '@/lib/http/errors';
import { respond } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// GET /collection – without an id: the error body rather than an HTML page
export function GET() {
  return respond(async () => {
    throw new AppError('VALIDATION', 'Collection id is required: GET /collection/:id');
  });
}

import { readImportStatus } from '@/lib/imports/status';
import { respond } from '@/lib/http/respond';
import { appContext } from '@/lib/runtime/context';

// POST /import/status – the record of one import
export function POST(req: Request) {
  return respond(async () => Response.json(await readImportStatus(appContext(), req)));
}

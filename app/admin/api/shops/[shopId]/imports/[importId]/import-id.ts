import { AppError } from '@/lib/http/errors';
import { parseImportId } from '@/lib/imports/import-records';

/** The import id of an admin path: anything but a positive integer names no import. */
export function importIdOf(value: string): number {
  const id = parseImportId(value);
  if (id === undefined) throw new AppError('NOT_FOUND', `Import ${value} not found`);
  return id;
}

import { AppError } from './errors';
import { JsonSyntaxError, scanJson, type ScannedObject } from './json-scan';

export type JsonBody = { raw: Buffer; json: unknown };

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  return value.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * Reads a request body that must be JSON: 415 unless Content-Type is application/json, 413 past
 * `limit` bytes (refused from Content-Length alone when it says so, otherwise reading stops at
 * the limit), 400 when empty. The bytes are not parsed.
 */
async function readBodyBytes(req: Request, limit: number): Promise<Buffer> {
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit} bytes`);
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const raw = Buffer.concat(chunks, size);
  if (size === 0) throw new AppError('VALIDATION', 'Request body is empty; expected a JSON object');
  return raw;
}

/** Reads a JSON request body (see readBodyBytes); 400 when the bytes are not JSON. */
export async function readJsonBody(req: Request, limit: number): Promise<JsonBody> {
  const raw = await readBodyBytes(req, limit);
  try {
    return { raw, json: JSON.parse(raw.toString('utf8')) };
  } catch (error) {
    throw new AppError('VALIDATION', `Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads a JSON request body as readJsonBody does, but checks it without building it (scanJson):
 * for large bodies whose parts are parsed later, when needed. `members` is null when the body is
 * JSON but not an object; `elementKeys` as scanJson's. `onBytes` sees the bytes before they are
 * checked. `scanAside` may check it elsewhere (intake's scanning thread: lib/imports/pipeline/
 * scan-thread.ts), or give undefined for it to be checked here.
 */
export async function readScannedBody(
  req: Request,
  limit: number,
  {
    elementKeys,
    onBytes,
    scanAside,
  }: { elementKeys?: readonly string[]; onBytes?: (raw: Buffer) => void; scanAside?: (raw: Buffer, elementKeys: readonly string[]) => Promise<ScannedObject | null> | undefined } = {},
): Promise<{ raw: Buffer; members: ScannedObject | null }> {
  const raw = await readBodyBytes(req, limit);
  onBytes?.(raw);
  try {
    return { raw, members: await (scanAside?.(raw, elementKeys ?? []) ?? scanJson(raw, elementKeys)) };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new AppError('VALIDATION', `Request body is not valid JSON: ${error.message}`);
  }
}

/** A member of a scanned body, parsed (undefined when absent). */
export function memberValue(raw: Buffer, members: ScannedObject, key: string): unknown {
  const member = members.get(key);
  return member && JSON.parse(raw.toString('utf8', member.start, member.end));
}

import crypto from 'node:crypto';
import { ZodError } from 'zod';
import { AppError, statusOf } from './errors';
import { describeZodError } from './zod-message';

export function errorBody(message: string) {
  return { status: 'error', payload: { message } };
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ZodError) error = new AppError('VALIDATION', describeZodError(error));
  if (error instanceof AppError) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
    // The rest of an oversized body was never read: the connection cannot carry another request.
    if (error.code === 'PAYLOAD_TOO_LARGE') headers.Connection = 'close';
    return Response.json(errorBody(error.message), { status: statusOf[error.code], headers });
  }
  const requestId = crypto.randomUUID();
  console.error(`[${requestId}] unexpected error`, error);
  return Response.json(errorBody(`Internal error (request id ${requestId})`), { status: 500 });
}

/** A 200 with a body that is JSON already (as Response.json sends it). */
export function jsonTextResponse(body: string): Response {
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

/**
 * A 200 whose JSON body is these UTF-8 chunks in turn, sent as they are: a large answer made of
 * kept parts is neither joined nor copied (joining ~300 KB and copying it again for the body cost
 * more than the rest of a listing answer).
 */
export function jsonChunksResponse(chunks: Uint8Array[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

/** Runs a handler body and maps anything it throws to the spec's error body, in one place. */
export async function respond(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return errorResponse(error);
  }
}

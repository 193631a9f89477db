import { clientAddress } from '@/lib/http/auth-failures';
import { guardRead } from '@/lib/http/read-guard';
import { methodNotAllowed, respond } from '@/lib/http/respond';
import { serveImage } from '@/lib/images/serve-image';
import { appContext } from '@/lib/runtime/context';

export const dynamic = 'force-dynamic';

// GET /images/:size/:key – a product image resized into a square, from the service's cache
export function GET(req: Request, { params }: { params: Promise<{ size: string; key: string }> }) {
  return respond(async () => {
    const ctx = appContext();
    if (ctx.settings.limits.enabled) guardRead(clientAddress(req), ctx.settings.limits.readsPerMinute);
    const { size, key } = await params;
    const image = await serveImage(ctx, size, key, req.headers.get('accept'));
    return new Response(new Uint8Array(image.body), {
      headers: { 'Content-Type': image.contentType, 'Cache-Control': `public, max-age=${image.maxAgeSeconds}, immutable`, Vary: 'Accept' },
    });
  });
}

// Any other method: 405 with the error body.
const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

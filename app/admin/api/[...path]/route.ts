import { noEndpoint } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// /admin/api/…: no endpoint, answered with the error body rather than the app's HTML page.
export const { GET, POST, PUT, PATCH, DELETE } = noEndpoint();

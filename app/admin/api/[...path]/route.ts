import { noEndpoint } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// /admin/api/… that is no endpoint: 404 with the error body, as on the public API (CONTRACT §7).
export const { GET, POST, PUT, PATCH, DELETE } = noEndpoint();

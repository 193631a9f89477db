import { noEndpoint } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// /admin/api itself: no endpoint, 404 with the error body (the admin pages' catch-all would answer HTML).
export const { GET, POST, PUT, PATCH, DELETE } = noEndpoint();

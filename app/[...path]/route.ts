import { noEndpoint } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// Any path that is no endpoint: 404 with the error body rather than Next.js's HTML page (CONTRACT §7).
export const { GET, POST, PUT, PATCH, DELETE } = noEndpoint();

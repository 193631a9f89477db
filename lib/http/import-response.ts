/** 204 for an accepted import, with the id to ask /import/status about. */
export function importAccepted(importId: number): Response {
  return new Response(null, { status: 204, headers: { 'X-Import-Id': String(importId) } });
}

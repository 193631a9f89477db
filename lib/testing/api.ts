import type { TestShop } from './factories';

export type ImportStatus = {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  items_total: number | null;
  items_applied: number | null;
  items_rejected: number | null;
  errors: { item_id?: string; position?: number; message: string }[];
  warnings: { item_id?: string; position?: number; message: string }[];
  message: string | null;
  [key: string]: unknown;
};

/** Sends an import as a shop's client does: JSON body with the credentials. */
export async function sendImport(baseUrl: string, method: string, resource: string, shop: TestShop, fields: Record<string, unknown>) {
  const response = await fetch(`${baseUrl}/import/${resource}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...shop, ...fields }),
  });
  return { response, importId: Number(response.headers.get('x-import-id')) || undefined };
}

export async function importStatus(baseUrl: string, shop: TestShop, importId: number): Promise<ImportStatus> {
  const response = await fetch(`${baseUrl}/import/status`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...shop, import_id: importId }),
  });
  if (!response.ok) throw new Error(`import status: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** Polls /import/status until the import is done or failed. */
export async function waitForImport(baseUrl: string, shop: TestShop, importId: number, timeoutMs = 60_000): Promise<ImportStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await importStatus(baseUrl, shop, importId);
    if (status.status === 'done' || status.status === 'failed') return status;
    if (Date.now() > deadline) throw new Error(`import ${importId} still ${status.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

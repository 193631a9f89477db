import type { TransactionSql } from 'postgres';

export const CATALOG_CHANNEL = 'vitrine_catalog';

/** Bumps the shop's catalog version inside the import's transaction; listeners hear it on commit. */
export async function bumpCatalogVersion(tx: TransactionSql, shopId: string): Promise<number> {
  const [row] = await tx<{ version: number }[]>`
    update shops set catalog_version = catalog_version + 1 where id = ${shopId} returning catalog_version as version`;
  await tx`select pg_notify(${CATALOG_CHANNEL}, ${JSON.stringify({ shop_id: shopId, version: row.version })})`;
  return row.version;
}

import type { TransactionSql } from 'postgres';

export const CATALOG_CHANNEL = 'vitrine_catalog';

/** Bumps the shop's catalog version inside the import's transaction; listeners hear it on commit. */
export async function bumpCatalogVersion(tx: TransactionSql, shopId: string): Promise<number> {
  // One round trip: an import's statements wait their turn on a thread that also takes requests in.
  const [row] = await tx<{ version: number }[]>`
    with bumped as (update shops set catalog_version = catalog_version + 1 where id = ${shopId} returning catalog_version)
    select catalog_version as version, pg_notify(${CATALOG_CHANNEL}, json_build_object('shop_id', ${shopId}::text, 'version', catalog_version)::text) from bumped`;
  return row.version;
}

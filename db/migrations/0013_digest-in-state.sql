-- Items' digests move to the narrow availability row: looking up what is stored of the ids an
-- import names then probes one narrow table instead of the wide products table too.
ALTER TABLE "product_state" ADD COLUMN "source_digest" text;--> statement-breakpoint
UPDATE "product_state" st SET "source_digest" = p."source_digest"
  FROM "products" p
 WHERE p."shop_id" = st."shop_id" AND p."id" = st."product_id" AND p."source_digest" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "source_digest";

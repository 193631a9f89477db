-- Location offers move into their product's row (`products.offers`, JSON text): offer rows, their
-- key and its index were over a quarter of PostgreSQL's work in a first load. Each product's
-- offers, ordered by location id, as [location_id, price, oldprice, discount_percent,
-- stock_quantity].
ALTER TABLE "products" ADD COLUMN "offers" text;--> statement-breakpoint
UPDATE "products" p SET "offers" = o."offers"
  FROM (SELECT "shop_id", "product_id",
               json_agg(json_build_array("location_id", "price", "oldprice", "discount_percent", "stock_quantity") ORDER BY "location_id")::text AS "offers"
          FROM "product_offers"
         GROUP BY "shop_id", "product_id") o
 WHERE p."shop_id" = o."shop_id" AND p."id" = o."product_id";--> statement-breakpoint
DROP TABLE "product_offers";

ALTER TABLE "products" DROP CONSTRAINT "products_shop_id_shops_id_fk";

CREATE TABLE "facet_tokens" (
	"shop_id" text NOT NULL,
	"number" integer NOT NULL,
	"token" text NOT NULL,
	CONSTRAINT "facet_tokens_shop_id_number_pk" PRIMARY KEY("shop_id","number")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "facet_values" text;
CREATE TABLE "product_offers" (
	"shop_id" text NOT NULL,
	"product_id" text NOT NULL,
	"location_id" text NOT NULL,
	"price" double precision NOT NULL,
	"oldprice" double precision,
	"discount_percent" double precision NOT NULL,
	"stock_quantity" integer,
	"data" jsonb NOT NULL,
	CONSTRAINT "product_offers_shop_id_product_id_location_id_pk" PRIMARY KEY("shop_id","product_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "product_state" (
	"shop_id" text NOT NULL,
	"product_id" text NOT NULL,
	"available" boolean NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "product_state_shop_id_product_id_pk" PRIMARY KEY("shop_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"shop_id" text NOT NULL,
	"id" text NOT NULL,
	"group_id" text,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"picture" text NOT NULL,
	"price" double precision NOT NULL,
	"oldprice" double precision,
	"discount_percent" double precision NOT NULL,
	"currency" text,
	"brand" text,
	"merchants" text[],
	"categories" text[] NOT NULL,
	"stock_quantity" integer,
	"rating" double precision,
	"price_margin" double precision,
	"sales_rate" double precision DEFAULT 0 NOT NULL,
	"first_added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"creation_date" timestamp with time zone,
	"data" jsonb NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_shop_id_id_pk" PRIMARY KEY("shop_id","id")
);
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_state_version" ON "product_state" USING btree ("shop_id","version");--> statement-breakpoint
CREATE INDEX "products_version" ON "products" USING btree ("shop_id","version");
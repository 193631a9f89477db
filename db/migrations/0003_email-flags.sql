CREATE TABLE "email_flags" (
	"shop_id" text NOT NULL,
	"email" text NOT NULL,
	"flags" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_flags_shop_id_email_pk" PRIMARY KEY("shop_id","email")
);
--> statement-breakpoint
ALTER TABLE "email_flags" ADD CONSTRAINT "email_flags_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_flags_updated" ON "email_flags" USING btree ("shop_id","updated_at");
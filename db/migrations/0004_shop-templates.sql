ALTER TABLE "shops" ADD COLUMN "listing_template" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "collection_template" text;
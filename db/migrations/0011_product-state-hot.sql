DROP INDEX "product_state_version";--> statement-breakpoint
-- Room in each page for HOT updates of availability (applies to pages written from now on).
ALTER TABLE "product_state" SET (fillfactor = 85);

// For listing.ts until it imports the surface, lib/listing/indexing (issue 39).
export * from './indexing';

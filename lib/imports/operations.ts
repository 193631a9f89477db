export type Resource = 'categories' | 'locations' | 'products';
export type ImportMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What an import does, named `<resource>.<verb>`: for trees POST replaces, PUT upserts, DELETE
 * removes by id; for products PUT upserts, PATCH syncs availability, DELETE disables and a POST
 * without `method` loads the listed items and disables the rest.
 */
export const operations = {
  'categories.replace': { resource: 'categories', field: 'categories' },
  'categories.upsert': { resource: 'categories', field: 'categories' },
  'categories.delete': { resource: 'categories', field: 'categories' },
  'locations.replace': { resource: 'locations', field: 'locations' },
  'locations.upsert': { resource: 'locations', field: 'locations' },
  'locations.delete': { resource: 'locations', field: 'locations' },
  'products.put': { resource: 'products', field: 'items' },
  'products.patch': { resource: 'products', field: 'items' },
  'products.delete': { resource: 'products', field: 'items' },
  'products.load': { resource: 'products', field: 'items' },
} as const satisfies Record<string, { resource: Resource; field: string }>;

export type Operation = keyof typeof operations;

const treeVerbs = { POST: 'replace', PUT: 'upsert', DELETE: 'delete' } as const;
const productVerbs = { PUT: 'put', PATCH: 'patch', DELETE: 'delete', POST: 'load' } as const;

export function operationFor(resource: Resource, method: ImportMethod): Operation | null {
  if (resource === 'products') return `products.${productVerbs[method]}`;
  const verb = treeVerbs[method as keyof typeof treeVerbs];
  return verb ? (`${resource}.${verb}` as Operation) : null;
}

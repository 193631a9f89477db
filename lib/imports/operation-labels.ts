import { operations, type Operation } from './operations';

/** What staff read for each operation: the resource, then what the import does to it. */
export const OPERATION_LABELS: Record<Operation, string> = {
  'categories.replace': 'Categories: replace the tree',
  'categories.upsert': 'Categories: add or update',
  'categories.delete': 'Categories: remove',
  'locations.replace': 'Locations: replace the tree',
  'locations.upsert': 'Locations: add or update',
  'locations.delete': 'Locations: remove',
  'products.put': 'Products: add or update',
  'products.patch': 'Products: update availability',
  'products.delete': 'Products: take out of stock',
  'products.load': 'Products: load the catalog (others out of stock)',
};

export const OPERATION_NAMES = Object.keys(operations) as Operation[];

export function isOperation(value: string): value is Operation {
  return Object.hasOwn(operations, value);
}

/** The label of an operation; an unknown one (from a newer version) shows as stored. */
export function operationLabel(operation: string): string {
  return isOperation(operation) ? OPERATION_LABELS[operation] : operation;
}

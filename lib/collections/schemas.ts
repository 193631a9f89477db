import { z } from 'zod';

// CONTRACT §6: a collection's rules. A product is in the collection when it matches any group (all
// fields of one group apply), is in stock, and is in stock in the asked location.

const ids = (field: string) =>
  z
    .array(z.union([z.string(), z.number()]).transform(String), { error: `${field} must be an array of ids` })
    .min(1, `${field} must list at least one id (leave it out to match any)`)
    .max(10_000, `${field} may list at most 10,000 ids`);

export const RuleGroup = z
  .object({
    categories: ids('rules.groups[].categories').optional(),
    brands: z
      .array(z.string({ error: 'rules.groups[].brands must be an array of strings' }), { error: 'rules.groups[].brands must be an array of strings' })
      .min(1, 'rules.groups[].brands must list at least one brand (leave it out to match any)')
      .optional(),
    price_min: z.number({ error: 'rules.groups[].price_min must be a number' }).finite().nonnegative('rules.groups[].price_min must not be negative').optional(),
    price_max: z.number({ error: 'rules.groups[].price_max must be a number' }).finite().nonnegative('rules.groups[].price_max must not be negative').optional(),
    params: z
      .record(z.string(), z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String), { error: 'rules.groups[].params values must be arrays' }), {
        error: 'rules.groups[].params must be an object of value arrays',
      })
      .optional(),
    ids: ids('rules.groups[].ids').optional(),
    exclude_ids: ids('rules.groups[].exclude_ids').optional(),
    discount: z.boolean({ error: 'rules.groups[].discount must be true or false' }).optional(),
    limit: z.number({ error: 'rules.groups[].limit must be a whole number' }).int('rules.groups[].limit must be a whole number').min(1, 'rules.groups[].limit must be at least 1').max(1000, 'rules.groups[].limit must be at most 1000').optional(),
  })
  .strict();
export type RuleGroup = z.infer<typeof RuleGroup>;

/** Whether every string in a value (keys too) can be stored in jsonb: no NUL, no half surrogate pair. */
function storable(value: unknown): boolean {
  if (typeof value === 'string') return !value.includes('\0') && value.isWellFormed();
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === 'object') return Object.entries(value).every(([key, v]) => storable(key) && storable(v));
  return true;
}

export const CollectionRules = z
  .object(
    {
      groups: z.array(RuleGroup, { error: 'rules.groups must be an array of rule groups' }).min(1, 'rules.groups must list at least one rule group').max(100, 'rules.groups may list at most 100 rule groups'),
    },
    { error: 'rules must be an object with groups' },
  )
  .refine(storable, 'rules must not contain NUL characters or half of a UTF-16 surrogate pair');
export type CollectionRules = z.infer<typeof CollectionRules>;

export const CollectionInput = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(200, 'name must be at most 200 characters')
    .refine((name) => !name.includes('\0'), 'name must not contain NUL characters'),
  rules: CollectionRules,
});
export type CollectionInput = z.input<typeof CollectionInput>;

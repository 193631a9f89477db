import { z } from 'zod';
import { storableText } from '@/db/storable-text';

// Field helpers whose messages read as sentences: "name is required", "parent must be a string".
// PostgreSQL stores no NUL character in text: refuse it with a reason rather than fail the import.
const noNul = (field: string) => [(value: string) => !value.includes('\0'), `${field} must not contain NUL characters`] as const;
// Nor half a UTF-16 surrogate pair (a client that cut a string in the middle of an emoji): text
// is stored with U+FFFD in its place, as product text is, but an id or a parent reference is refused.
const wellFormed = (field: string) =>
  [(value: string) => value.isWellFormed(), `${field} must not contain an unpaired UTF-16 surrogate (half of a character)`] as const;

/**
 * Whether a number sent as an id names one id (CONTRACT §3 stores numeric ids as strings): an
 * integer past 2^53 has already lost digits to JSON.parse, so 12345678901234567890 and
 * 12345678901234567891 would both be stored as "12345678901234567000", two products as one.
 * Such an id is refused with a reason instead (it can be sent as a string).
 */
export const keepsItsDigits = (value: unknown) => typeof value !== 'number' || !Number.isInteger(value) || Number.isSafeInteger(value);
export const lostDigits = (field: string) => `${field} is a number too large to keep exactly; send it as a string`;

export function requiredString(field: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .trim()
    .min(1, `${field} must not be empty`)
    .refine(...noNul(field))
    .transform(storableText);
}

export function optionalString(field: string) {
  return z
    .string({ error: `${field} must be a string` })
    .refine(...noNul(field))
    .transform(storableText)
    .nullish();
}

/** An id: a non-empty string, or a number kept as its string form (CONTRACT §3). */
export function identifier(field: string, maxLength = 255) {
  return z
    .union([z.string(), z.number().finite()], {
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string or a number`),
    })
    .refine(keepsItsDigits, lostDigits(field))
    .transform((value) => String(value).trim())
    .pipe(
      z
        .string()
        .min(1, `${field} must not be empty`)
        .max(maxLength, `${field} must be at most ${maxLength} characters`)
        .refine(...noNul(field)),
    );
}

/** A parent reference: null, absent or "" for a root. */
function parentRef() {
  return z
    .union([z.string(), z.number().finite(), z.null()], { error: 'parent must be a string, a number or null' })
    .refine(keepsItsDigits, lostDigits('parent'))
    .transform((value) => (value === null ? null : String(value).trim() || null))
    .refine((value) => value === null || !value.includes('\0'), noNul('parent')[1])
    .refine((value) => value === null || value.isWellFormed(), wellFormed('parent')[1]);
}

/** A tree node's id: an identifier PostgreSQL can compare as sent. */
const nodeId = () => identifier('id').refine(...wellFormed('id'));

const node = (kind: string) => ({ error: `each ${kind} must be an object with id and name` });

export const CategoryInput = z.object({
  id: nodeId(),
  name: requiredString('name'),
  parent: parentRef().optional().transform((value) => value ?? null),
  url: optionalString('url'),
  alias: optionalString('alias'),
}, node('category'));
export type CategoryInput = z.infer<typeof CategoryInput>;

export const LocationInput = z.object({
  id: nodeId(),
  name: requiredString('name'),
  // Spec 2.3 makes parent required for locations: null marks a root.
  parent: z
    .unknown()
    .refine((value) => value !== undefined, 'parent is required (null for a root)')
    .pipe(parentRef()),
  type: optionalString('type'),
  group: z
    .union([z.string(), z.array(z.string())], { error: 'group must be a string or an array of strings' })
    .nullish()
    .transform((value) => (value == null ? null : Array.isArray(value) ? value : [value]))
    .refine((value) => !value?.some((group) => group.includes('\0')), noNul('group')[1])
    .transform((value) => value && value.map(storableText)),
  discount_percent: z.number({ error: 'discount_percent must be a number' }).finite().nullish(),
  search_level_up: z
    .number({ error: 'search_level_up must be an integer' })
    .int('search_level_up must be an integer')
    .min(-2147483648, 'search_level_up is out of range')
    .max(2147483647, 'search_level_up is out of range')
    .nullish(),
}, node('location'));
export type LocationInput = z.infer<typeof LocationInput>;

export const NodeId = identifier('id');

import { z } from 'zod';

// Rules, each giving both the zod schema, which words the errors (product-schema.ts), and a plain
// check that gives zod's output without zod (item-rules.ts' checkItem; item-bytes.ts runs one on
// a section parsed alone), and the combinators that make them; then the niche sections of an item
// (spec 2.8, but fashion, which item-rules.ts has with the item's other facets) and an offer's
// delivery_types. item-rules.test.ts holds zod and the checks to the same answers.

/** A check's refusal: the value is zod's to word. */
export const FAIL = Symbol('fail');

/**
 * A plain check: FAIL, or zod's output for the value, which is the value itself when zod would
 * give it back unchanged (a check copies only what it changes).
 */
export type Check = (value: unknown) => unknown;

/**
 * A number's bounds (`above` exclusive, `min` and `max` inclusive), or a string's length
 * (`min`, `max`) and whether it is trimmed: kept on the rule for the byte reader (item-bytes.ts),
 * which applies them to what it reads.
 */
export type Limits = { above?: number; min?: number; max?: number; trim?: boolean };

export type Rule<Z extends z.ZodType = z.ZodType> = { zod: Z; check: Check; limits?: Limits };

/** A test of a number against `limits`' bounds (each bound read once, not per value). */
function withinBounds(limits: Limits): (value: number) => boolean {
  const above = limits.above ?? -Infinity;
  const min = limits.min ?? -Infinity;
  const max = limits.max ?? Infinity;
  return (value) => !(value <= above || value < min || value > max);
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const isInt32 = (value: unknown): value is number => isNumber(value) && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;

// A missing field reads "is required"; only required fields can be missing (the rest are nullish).
export const expected = (field: string, what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : `${field} must be ${what}`);

/** The rule, or null (absent members are left out of the output, as zod leaves them). */
export function nullish<Z extends z.ZodType>(rule: Rule<Z>): Rule<z.ZodOptional<z.ZodNullable<Z>>> {
  return { zod: rule.zod.nullish(), check: (value) => (value === null ? null : rule.check(value)), limits: rule.limits };
}

export const text = (field: string) => ({
  zod: z.string({ error: expected(field, 'a string') }),
  check: ((value) => (typeof value === 'string' ? value : FAIL)) as Check,
});

export const flag = (field: string) => ({
  zod: z.boolean({ error: `${field} must be true or false` }),
  check: ((value) => (typeof value === 'boolean' ? value : FAIL)) as Check,
});

export const number = (field: string) => ({
  zod: z.number({ error: expected(field, 'a number') }).finite(`${field} must be a number`),
  check: ((value) => (isNumber(value) ? value : FAIL)) as Check,
});

// 32-bit, as stored: a larger count would fail the whole import instead of one item.
export const integer = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int(`${field} must be an integer`)
    .min(INT32_MIN, `${field} is out of range`)
    .max(INT32_MAX, `${field} is out of range`);

export const int32 = (field: string) => ({ zod: integer(field), check: ((value) => (isInt32(value) ? value : FAIL)) as Check });

/** The message for a number outside `limits`: "greater than 0", "not be negative", "1 to 5". */
function boundsMessage(field: string, limits: Limits): string {
  if (limits.above !== undefined) return `${field} must be greater than ${limits.above}`;
  if (limits.max === undefined) return limits.min === 0 ? `${field} must not be negative` : `${field} must be at least ${limits.min}`;
  return `${field} must be ${limits.min} to ${limits.max}`;
}

/** zod's number schema given `limits`' bounds. */
function bounded<Z extends z.ZodNumber>(schema: Z, message: string, limits: Limits): Z {
  let bounded = schema;
  if (limits.above !== undefined) bounded = bounded.gt(limits.above, message) as Z;
  if (limits.min !== undefined) bounded = bounded.min(limits.min, message) as Z;
  if (limits.max !== undefined) bounded = bounded.max(limits.max, message) as Z;
  return bounded;
}

/** A finite number within `limits` (`noun` names it in the message when not the field). */
export const boundedNumber = (field: string, limits: Limits, noun = field) => {
  const within = withinBounds(limits);
  return {
    zod: bounded(number(field).zod, boundsMessage(noun, limits), limits),
    check: ((value) => (isNumber(value) && within(value) ? value : FAIL)) as Check,
    limits,
  };
};

/** A 32-bit integer within `limits`. */
export const boundedInt32 = (field: string, limits: Limits, noun = field) => {
  const within = withinBounds(limits);
  return {
    zod: bounded(integer(field), boundsMessage(noun, limits), limits),
    check: ((value) => (isInt32(value) && within(value) ? value : FAIL)) as Check,
    limits,
  };
};

/** A string of `limits.min` to `limits.max` UTF-16 units, trimmed first when `limits.trim`. */
export const boundedText = (field: string, limits: Limits) => {
  let schema = text(field).zod;
  if (limits.trim) schema = schema.trim();
  if (limits.min !== undefined) schema = schema.min(limits.min, limits.min === 1 ? `${field} is required` : `${field} must be at least ${limits.min} characters`);
  if (limits.max !== undefined) schema = schema.max(limits.max, `${field} must be at most ${limits.max} characters`);
  const min = limits.min ?? 0;
  const max = limits.max ?? Infinity;
  return {
    zod: schema,
    check: ((value) => {
      if (typeof value !== 'string') return FAIL;
      const kept = limits.trim ? value.trim() : value;
      return kept.length >= min && kept.length <= max ? kept : FAIL;
    }) as Check,
    limits,
  };
};

/** A year from 1701 to last year (spec 2.8's book.year). */
export const pastYear = (field: string) => ({
  zod: integer(field).refine((year) => year > 1700 && year < new Date().getFullYear(), { message: `${field} must be above 1700 and below the current year` }),
  check: ((value) => (isInt32(value) && value > 1700 && value < new Date().getFullYear() ? value : FAIL)) as Check,
});

/** An array of strings (no NUL), numbers in it made strings. */
export const checkTextList: Check = (value) => {
  if (!Array.isArray(value)) return FAIL;
  let out: string[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const element = value[i] as unknown;
    if (typeof element === 'string') {
      if (element.includes('\0')) return FAIL;
      if (out) out[i] = element;
    } else if (isNumber(element)) {
      out ??= (value as string[]).slice(0, i);
      out[i] = String(element);
    } else return FAIL;
  }
  return out ?? value;
};

/** One string (made an array of it) or an array of strings. */
export const checkOneOrMany: Check = (value) => {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) && value.every((element) => typeof element === 'string') ? value : FAIL;
};

/** Strings, numbers made strings; no NUL. */
export const textList = (field: string) => ({
  zod: z.array(
    z
      .union([z.string(), z.number().finite()])
      .transform((value) => String(value))
      .refine((value) => !value.includes('\0'), `${field} must not contain NUL characters`),
    { error: expected(field, 'an array of strings') },
  ),
  check: checkTextList,
});

/** Sizes and the like, where the spec allows strings and numbers: kept as sent. */
export const mixedList = (field: string) => ({
  zod: z.array(z.union([z.string(), z.number().finite()]), { error: `${field} must be an array of strings or numbers` }),
  check: ((value) => (Array.isArray(value) && value.every((element) => typeof element === 'string' || isNumber(element)) ? value : FAIL)) as Check,
});

/** One string or an array of them (CONTRACT §3: "merchant may be a string"). */
export const oneOrMany = (field: string) => ({
  zod: z
    .union([z.string(), z.array(z.string())], { error: `${field} must be a string or an array of strings` })
    .transform((value) => (Array.isArray(value) ? value : [value])),
  check: checkOneOrMany,
});

/**
 * A loose object: `fields` checked, other keys kept as sent. `input` itself when every check gave
 * its value back, else a copy with the checks' results, keys in the order sent.
 */
export function checkLooseObject(input: unknown, checks: Map<string, Check>, required: readonly string[]): Record<string, unknown> | typeof FAIL {
  if (!isObject(input)) return FAIL;
  for (const key of required) if (!(key in input)) return FAIL;
  let out: Record<string, unknown> | undefined;
  for (const key in input) {
    // zod drops it; an assignment would set the copy's prototype.
    if (key === '__proto__') return FAIL;
    const value = input[key];
    const check = checks.get(key);
    if (check === undefined) {
      if (out) out[key] = value;
      continue;
    }
    // A key present with undefined cannot come from JSON; zod is the judge of anything else.
    if (value === undefined) return FAIL;
    const result = check(value);
    if (result === FAIL) return FAIL;
    if (out) out[key] = result;
    else if (result !== value) {
      // The first change: the keys before it, as they are, then this one's result.
      out = {};
      for (const earlier in input) {
        if (earlier === key) break;
        out[earlier] = input[earlier];
      }
      out[key] = result;
    }
  }
  return out ?? input;
}

/** A loose object of `fields`; those named in `required` must be present. */
export function looseObject<F extends Record<string, Rule>>(fields: F, required: readonly (keyof F & string)[] = []): Rule<z.ZodObject<{ [K in keyof F]: F[K]['zod'] }, z.core.$loose>> {
  const checks = new Map(Object.entries(fields).map(([key, rule]) => [key, rule.check]));
  return {
    zod: z.looseObject(Object.fromEntries(Object.entries(fields).map(([key, rule]) => [key, rule.zod])) as { [K in keyof F]: F[K]['zod'] }),
    check: (value) => checkLooseObject(value, checks, required),
  };
}

/** Each element checked: the array itself when each came back as it was. */
export function checkEach(value: unknown, check: Check): unknown {
  if (!Array.isArray(value)) return FAIL;
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const element = check(value[i]);
    if (element === FAIL) return FAIL;
    if (out) out[i] = element;
    else if (element !== value[i]) {
      out = value.slice(0, i);
      out[i] = element;
    }
  }
  return out ?? value;
}

export function arrayOf<Z extends z.ZodType>(rule: Rule<Z>, error: string): Rule<z.ZodArray<Z>> {
  // The limits are its elements' (for the byte reader).
  return { zod: z.array(rule.zod, { error }), check: (value) => checkEach(value, rule.check), limits: rule.limits };
}

/** An object whose every value passes `rule` (keys any string). */
export function recordOf<Z extends z.core.SomeType>(rule: Rule<Z & z.ZodType>, error: string) {
  return {
    zod: z.record(z.string(), rule.zod, { error }),
    check: (value: unknown) => {
      if (!isObject(value)) return FAIL;
      for (const key in value) {
        if (key === '__proto__') return FAIL;
        if (rule.check(value[key]) !== value[key]) return FAIL;
      }
      return value;
    },
  };
}

const gender = nullish(text('gender'));
const optionalText = (field: string) => nullish(text(field));
const optionalFlag = (field: string) => nullish(flag(field));
const optionalNumber = (field: string) => nullish(number(field));

/** Every niche section but fashion, by name. */
export const SECTION_RULES = {
  child: looseObject({
    type: optionalText('child.type'),
    gender,
    age: nullish(looseObject({ min: optionalNumber('child.age.min'), max: optionalNumber('child.age.max') })),
  }),
  jewelry: looseObject({
    gender,
    color: optionalText('jewelry.color'),
    metal: optionalText('jewelry.metal'),
    gem: optionalText('jewelry.gem'),
    ring_sizes: nullish(mixedList('jewelry.ring_sizes')),
    bracelet_sizes: nullish(mixedList('jewelry.bracelet_sizes')),
    chain_sizes: nullish(mixedList('jewelry.chain_sizes')),
  }),
  cosmetic: looseObject({
    gender,
    hypoallergenic: optionalFlag('cosmetic.hypoallergenic'),
    periodic: optionalFlag('cosmetic.periodic'),
    professional: optionalFlag('cosmetic.professional'),
    skin: nullish(looseObject({ part: nullish(textList('cosmetic.skin.part')), type: nullish(textList('cosmetic.skin.type')), condition: nullish(textList('cosmetic.skin.condition')) })),
    hair: nullish(looseObject({ type: nullish(textList('cosmetic.hair.type')), condition: nullish(textList('cosmetic.hair.condition')) })),
    nail: nullish(looseObject({ type: optionalText('cosmetic.nail.type'), polish_color: optionalText('cosmetic.nail.polish_color') })),
    perfume: nullish(looseObject({ aroma: optionalText('cosmetic.perfume.aroma'), family: optionalText('cosmetic.perfume.family') })),
  }),
  pharmacy: looseObject({
    volumes: nullish(arrayOf(looseObject({ value: number('pharmacy.volumes[].value'), price: number('pharmacy.volumes[].price') }, ['value', 'price']), 'pharmacy.volumes must be an array')),
  }),
  book: looseObject({
    author: optionalText('book.author'),
    publisher: optionalText('book.publisher'),
    series: optionalText('book.series'),
    editor: optionalText('book.editor'),
    illustrator: optionalText('book.illustrator'),
    year: nullish(pastYear('book.year')),
    isbn: nullish(oneOrMany('book.isbn')),
  }),
  realty: looseObject({
    action: optionalText('realty.action'),
    type: optionalText('realty.type'),
    space: nullish(looseObject({ min: optionalNumber('realty.space.min'), max: optionalNumber('realty.space.max'), final: optionalNumber('realty.space.final') })),
  }),
  auto: looseObject({
    vds: optionalText('auto.vds'),
    periodic: optionalFlag('auto.periodic'),
    compatibility: nullish(arrayOf(looseObject({ brand: optionalText('auto.compatibility[].brand'), model: optionalText('auto.compatibility[].model') }), 'auto.compatibility must be an array')),
  }),
  fmcg: looseObject({ hypoallergenic: optionalFlag('fmcg.hypoallergenic'), periodic: optionalFlag('fmcg.periodic') }),
  pets: looseObject({
    periodic: optionalFlag('pets.periodic'),
    breed: optionalText('pets.breed'),
    type: optionalText('pets.type'),
    age: optionalText('pets.age'),
    size: optionalText('pets.size'),
  }),
};
export type SectionName = keyof typeof SECTION_RULES;

/** An offer's delivery_types (spec 2.6): quantities by delivery type, any key. */
export const DELIVERY_TYPES_RULE = recordOf(int32('locations[].delivery_types'), 'locations[].delivery_types must be an object of integers');

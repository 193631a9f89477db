import fc from 'fast-check';
import { z } from 'zod';

// Requests are generated from the zod schemas the routes validate with: each schema's JSON Schema
// (zod's own `toJSONSchema`, input side) is read into a fast-check arbitrary of values the schema
// is about, mostly valid, that the mutations (mutations.ts) then spoil.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: JsonSchema | boolean;
  format?: string;
  pattern?: string;
};

/** Strings a shop's data holds: words, ids, URLs, emails, and now and then anything at all. */
function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 40, 60);
  const min = Math.min(schema.minLength ?? 0, max);
  const plain = fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, 1) });
  const kinds: fc.Arbitrary<string>[] = [
    plain,
    fc.constantFrom('shoes', 'Tea', 'c1', '10', 'red', 'Acme', 'https://shop.example/p/1', 'a@example.test', '2024-05-01', 'true'),
    fc.webUrl(),
    fc.emailAddress(),
  ];
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), plain);
  if (schema.format === 'uri') return fc.oneof(fc.webUrl(), plain);
  return fc.oneof(...kinds).filter((value) => value.length >= min && value.length <= (schema.maxLength ?? Infinity));
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : -1000);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : 100_000);
  const [min, max] = low <= high ? [low, high] : [high, low];
  return integer
    ? fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) })
    : fc.double({ min: Math.max(min, -1e9), max: Math.min(max, 1e9), noNaN: true, noDefaultInfinity: true });
}

function fromSchema(schema: JsonSchema | boolean | undefined, depth: number): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || schema === false || Object.keys(schema).length === 0) return anyJson(depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => fromSchema(alternative, depth)));
  if (schema.allOf?.length) return fromSchema(schema.allOf[0], depth);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => fromSchema({ ...schema, type }, depth)));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const maxLength = Math.min(schema.maxItems ?? 4, 4);
      return fc.array(fromSchema(schema.items ?? {}, depth + 1), { minLength: Math.min(schema.minItems ?? 0, maxLength), maxLength });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) record[key] = fromSchema(value, depth + 1);
      const keys = Object.keys(record);
      return fc.record(record, { requiredKeys: keys.filter((key) => required.has(key)) });
    }
    default:
      return anyJson(depth);
  }
}

/** Any JSON value, small. */
export function anyJson(depth = 3): fc.Arbitrary<unknown> {
  return depth > 4 ? fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)) : fc.jsonValue({ maxDepth: 2 });
}

/** Values about `schema`: mostly valid, its optional members now there and now not. */
export function schemaArbitrary(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromSchema(json, 0);
}

// Objects written as JSON text from their members' JSON, as JSON.stringify would write them.

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
const isArrayIndex = (key: string) => ARRAY_INDEX.test(key) && Number(key) < 4_294_967_295;

/** Whether keys written in their order make the same JSON as an object given them in that order. */
export function plainKeys(keys: string[]): boolean {
  return new Set(keys).size === keys.length && !keys.some(isArrayIndex);
}

/** The JSON of an object given `keys[i]: values[i]` (values already JSON) in this order. */
export function objectJson(keys: string[], values: string[]): string {
  const members = new Map<string, string>();
  for (let i = 0; i < keys.length; i++) members.set(keys[i], values[i]);
  const indexes = [...members.keys()].filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  const named = [...members.keys()].filter((key) => !isArrayIndex(key));
  return `{${[...indexes, ...named].map((key) => `${JSON.stringify(key)}:${members.get(key)}`).join(',')}}`;
}

import type { ZodError } from 'zod';

/** "items[3].price: must be greater than 0" – the path a client can find in its own payload. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

const generic = (path: string) => path.replace(/\[\d*\]/g, '[]');

/**
 * One line per problem (at most five). Messages written as sentences about their field
 * ("price must be greater than 0", "locations[].price must be …") stand alone, with the real
 * indexes (and a record's key) filled in; others get their path as a prefix.
 */
export function describeZodError(error: ZodError, prefix: ReadonlyArray<PropertyKey> = []): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [...prefix, ...issue.path];
      const where = formatPath(path);
      if (!where) return issue.message;
      const subject = issue.message.split(' ', 1)[0];
      if (generic(subject) === generic(where)) return where + issue.message.slice(subject.length);
      if (subject === String(path[0]) || subject === String(path.at(-1))) return issue.message;
      // A value of a record about its field ("locations[].delivery_types must be …"): named by its key.
      if (generic(where).startsWith(`${generic(subject)}.`)) return where + issue.message.slice(subject.length);
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

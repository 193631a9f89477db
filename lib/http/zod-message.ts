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

export function describeZodError(error: ZodError, prefix: ReadonlyArray<PropertyKey> = []): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = formatPath([...prefix, ...issue.path]);
      // Messages written as whole sentences ("price must be greater than 0") stand alone.
      if (!where || issue.message.startsWith(where + ' ') || issue.message.startsWith(String(issue.path.at(-1)) + ' ')) {
        return issue.message;
      }
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

import { z } from 'zod';

// Spec 2.1: the envelope every import carries. Items are validated one by one later, in the job.
export const WebhookUrl = z
  .string({ error: 'webhook must be a string URL' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'webhook must be an http(s) URL' },
  );

export const ProductMethod = z
  .string({ error: 'method must be one of PUT, PATCH, DELETE' })
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(['PUT', 'PATCH', 'DELETE'], { error: 'method must be one of PUT, PATCH, DELETE' }));

/** Numeric ids from sloppy clients are kept, as strings. */
export const Identifier = z.union([z.string(), z.number().finite()]).transform((value) => String(value).trim());

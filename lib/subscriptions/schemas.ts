import { z } from 'zod';

export const EMAIL_EVENTS = ['complained', 'hard_bounced', 'blacklisted', 'unsubscribed'] as const;

export const EmailEvent = z.enum(EMAIL_EVENTS, {
  error: (issue) => (issue.input === undefined ? 'event is required' : `event must be one of ${EMAIL_EVENTS.join(', ')}`),
});

/**
 * Trimmed and lower-cased, so one address has one set of flags. Checked loosely (zod's
 * `unicodeEmail`: one @, no spaces): a bounce or an unsubscribe for `josé@example.com`,
 * `a@münchen.de` or `a!b@example.com` is a real address's, and refusing it would lose the flag.
 */
export const FlaggedEmail = z
  .string({ error: (issue) => (issue.input === undefined ? 'email is required' : 'email must be a string') })
  .trim()
  .toLowerCase()
  .pipe(
    z
      .email({ pattern: z.regexes.unicodeEmail, error: 'email must be a valid email address' })
      .max(320, 'email must be at most 320 characters')
      // The pattern lets control characters through; no address has one (and PostgreSQL stores no NUL).
      // eslint-disable-next-line no-control-regex
      .refine((email) => !/[\u0000-\u001f\u007f]/.test(email), 'email must be a valid email address'),
  );

export const FlagInput = z.object({ email: FlaggedEmail, event: EmailEvent });
export type FlagInput = z.infer<typeof FlagInput>;

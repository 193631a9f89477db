import { z } from 'zod';

export const Email = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'email must be a valid email address' }));

export const StaffUserInput = z.object({
  email: Email,
  password: z.string({ error: 'password is required' }).min(8, 'password must be at least 8 characters').max(200),
  shops: z.array(z.string()).default([]),
  technicalNotices: z.boolean().default(false),
});
export type StaffUserInput = z.input<typeof StaffUserInput>;

export const LoginInput = z.object({
  email: Email,
  password: z.string({ error: 'password is required' }).min(1, 'password is required'),
});

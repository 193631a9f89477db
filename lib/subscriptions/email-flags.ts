import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { FlaggedEmail, FlagInput } from './schemas';

/** Adds the event's flag to the email; a flag already set changes nothing (not even updated_at). */
export async function flagEmail(ctx: Pick<AppContext, 'sql'>, shopId: string, input: unknown): Promise<void> {
  const parsed = FlagInput.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  const { email, event } = parsed.data;
  await ctx.sql`
    insert into email_flags (shop_id, email, flags) values (${shopId}, ${email}, ${[event]})
    on conflict (shop_id, email) do update
       set flags = email_flags.flags || ${event}::text, updated_at = now()
     where not (${event}::text = any(email_flags.flags))`;
}

/** Takes one flag off an email (admin app); the row goes when its last flag does. */
export async function unflagEmail(ctx: Pick<AppContext, 'sql'>, shopId: string, input: unknown): Promise<void> {
  const parsed = FlagInput.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  const { email, event } = parsed.data;
  await ctx.sql.begin(async (tx) => {
    await tx`
      update email_flags set flags = array_remove(flags, ${event}::text), updated_at = now()
       where shop_id = ${shopId} and email = ${email} and ${event}::text = any(flags)`;
    await tx`delete from email_flags where shop_id = ${shopId} and email = ${email} and cardinality(flags) = 0`;
  });
}

/** RFC 4180 CSV of the shop's flags: email, flags (space-separated), updated_at. */
export function flagsCsv(rows: EmailFlags[]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) || /^[=+\-@]/.test(value) ? `"${value.replace(/^([=+\-@])/, "'$1").replaceAll('"', '""')}"` : value);
  return ['email,flags,updated_at', ...rows.map((r) => [r.email, r.flags.join(' '), r.updated_at].map(cell).join(','))].join('\r\n') + '\r\n';
}

export type EmailFlags = { email: string; flags: string[]; updated_at: string };

/** The shop's flagged emails (one, with `email`), most recently changed first. */
export async function listEmailFlags(ctx: Pick<AppContext, 'sql'>, shopId: string, email?: string): Promise<EmailFlags[]> {
  let only: string | undefined;
  if (email !== undefined) {
    const parsed = FlaggedEmail.safeParse(email);
    if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
    only = parsed.data;
  }
  const [shop] = await ctx.sql`select 1 from shops where id = ${shopId}`;
  if (!shop) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  const rows = await ctx.sql<{ email: string; flags: string[]; updated_at: string }[]>`
    select email, flags, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at
      from email_flags
     where shop_id = ${shopId} ${only !== undefined ? ctx.sql`and email = ${only}` : ctx.sql``}
     order by updated_at desc, email`;
  return rows.map((row) => ({ email: row.email, flags: row.flags, updated_at: row.updated_at }));
}

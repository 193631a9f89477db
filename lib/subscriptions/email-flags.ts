import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { EMAIL_EVENTS, FlaggedEmail, FlagInput } from './schemas';

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

// A cell of the CSV: quoted when it holds a separator (`;` and tab too, which spreadsheets in
// many locales split on), and a formula's first character neutralised.
const cell = (value: string) => (/[",;\t\r\n]/.test(value) || /^[=+\-@]/.test(value) ? `"${value.replace(/^([=+\-@])/, "'$1").replaceAll('"', '""')}"` : value);
const CSV_HEADER = 'email,flags,updated_at\r\n';
const csvLine = (r: EmailFlags) => [r.email, r.flags.join(' '), r.updated_at].map(cell).join(',') + '\r\n';

/** RFC 4180 CSV of the shop's flags: email, flags (space-separated), updated_at. */
export function flagsCsv(rows: EmailFlags[]): string {
  return CSV_HEADER + rows.map(csvLine).join('');
}

const UPDATED_AT = "to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";

/**
 * The same CSV as a stream read from PostgreSQL 1,000 rows at a time, most recently changed first:
 * a shop's flags grow by tens of thousands a day, and the export must not hold them all at once.
 * Like `pageEmailFlags`, for a shop the caller knows exists (the admin API's `shopRoute`).
 */
export function flagsCsvStream(ctx: Pick<AppContext, 'sql'>, shopId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const cursor = ctx.sql<EmailFlags[]>`
    select email, flags, ${ctx.sql.unsafe(UPDATED_AT)} as updated_at
      from email_flags where shop_id = ${shopId} order by updated_at desc, email`.cursor(1000)[Symbol.asyncIterator]();
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await cursor.next();
      const rows = next.done ? [] : next.value;
      // The first chunk is the CSV of the first rows, header included; the others add lines.
      if (first || rows.length) controller.enqueue(encoder.encode(first ? flagsCsv(rows) : rows.map(csvLine).join('')));
      first = false;
      if (next.done) controller.close();
    },
    async cancel() {
      await cursor.return?.();
    },
  });
}

async function assertShop(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<void> {
  const [shop] = await ctx.sql`select 1 from shops where id = ${shopId}`;
  if (!shop) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
}

export type FlagsPage = { flags: EmailFlags[]; next: string | null };

/**
 * One page of the shop's flags, most recently changed first (the admin app's list): `after` is
 * the `next` of the page before, a cursor on (updated_at, email) so pages neither skip nor repeat
 * rows while flags keep arriving.
 */
export async function pageEmailFlags(ctx: Pick<AppContext, 'sql'>, shopId: string, { limit, after, q, flag }: { limit: number; after?: string; q?: string; flag?: string }): Promise<FlagsPage> {
  if (flag !== undefined && !(EMAIL_EVENTS as readonly string[]).includes(flag)) throw new AppError('VALIDATION', `flag must be one of ${EMAIL_EVENTS.join(', ')}`);
  const contains = q?.trim().toLowerCase();
  let from: [string, string] | undefined;
  if (after) {
    try {
      const parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as unknown;
      if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((part) => typeof part === 'string') && !Number.isNaN(Date.parse(parsed[0]))) {
        from = parsed as [string, string];
      }
    } catch {
      // not a cursor of ours
    }
    if (!from) throw new AppError('VALIDATION', 'after must be the next cursor of a page of flags');
  }
  const rows = await ctx.sql<(EmailFlags & { at: string })[]>`
    select email, flags, ${ctx.sql.unsafe(UPDATED_AT)} as updated_at, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
      from email_flags
     where shop_id = ${shopId}
       ${from ? ctx.sql`and (updated_at < ${from[0]}::timestamptz or (updated_at = ${from[0]}::timestamptz and email > ${from[1]}))` : ctx.sql``}
       ${contains ? ctx.sql`and strpos(email, ${contains}) > 0` : ctx.sql``}
       ${flag ? ctx.sql`and ${flag}::text = any(flags)` : ctx.sql``}
     order by updated_at desc, email
     limit ${limit + 1}`;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const next = rows.length > limit && last ? Buffer.from(JSON.stringify([last.at, last.email])).toString('base64url') : null;
  return { flags: shown.map((row) => ({ email: row.email, flags: row.flags, updated_at: row.updated_at })), next };
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
  await assertShop(ctx, shopId);
  const rows = await ctx.sql<{ email: string; flags: string[]; updated_at: string }[]>`
    select email, flags, ${ctx.sql.unsafe(UPDATED_AT)} as updated_at
      from email_flags
     where shop_id = ${shopId} ${only !== undefined ? ctx.sql`and email = ${only}` : ctx.sql``}
     order by updated_at desc, email`;
  return rows.map((row) => ({ email: row.email, flags: row.flags, updated_at: row.updated_at }));
}

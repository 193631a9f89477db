import type { AppContext } from '@/lib/runtime/context';
import { EMAIL_EVENTS } from './schemas';

export type FlagTotals = { emails: number; by_flag: Record<(typeof EMAIL_EVENTS)[number], number> };

/** How many emails the shop has flagged, and how many carry each flag. */
export async function flagTotals(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<FlagTotals> {
  const [row] = await ctx.sql<Record<string, number>[]>`
    select count(*)::int as emails,
           count(*) filter (where 'complained' = any(flags))::int as complained,
           count(*) filter (where 'hard_bounced' = any(flags))::int as hard_bounced,
           count(*) filter (where 'blacklisted' = any(flags))::int as blacklisted,
           count(*) filter (where 'unsubscribed' = any(flags))::int as unsubscribed
      from email_flags where shop_id = ${shopId}`;
  return { emails: row.emails, by_flag: Object.fromEntries(EMAIL_EVENTS.map((e) => [e, row[e]])) as FlagTotals['by_flag'] };
}

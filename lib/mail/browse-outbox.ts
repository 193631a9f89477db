import type { AppContext } from '@/lib/runtime/context';
import { AppError } from '@/lib/http/errors';

export type OutboxMessage = { id: number; shop_id: string | null; shop_name: string | null; recipient: string; subject: string; text: string; html: string; created_at: string; sent_at: string | null; error: string | null };
export type OutboxPage = { messages: OutboxMessage[]; older: number | null; total: number };

const PAGE = 50;

/** Every email the service composed, newest first, 50 a page (`before`: the page's `older`). */
export async function pageOutbox(ctx: Pick<AppContext, 'sql'>, input: { before?: string | null }): Promise<OutboxPage> {
  const before = input.before ? Number(input.before) : undefined;
  if (input.before && !(Number.isSafeInteger(before) && before! > 0)) throw new AppError('VALIDATION', 'before must be a message id (a positive integer)');
  const sql = ctx.sql;
  const [rows, [{ total }]] = await Promise.all([
    sql<OutboxMessage[]>`
      select o.id::int as id, o.shop_id, s.name as shop_name, o.recipient, o.subject, o.text, o.html, o.created_at, o.sent_at, o.error
        from email_outbox o left join shops s on s.id = o.shop_id
       ${before ? sql`where o.id < ${before}` : sql``}
       order by o.id desc limit ${PAGE + 1}`,
    sql<{ total: number }[]>`select count(*)::int as total from email_outbox`,
  ]);
  const messages = rows.slice(0, PAGE).map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString(), sent_at: m.sent_at ? new Date(m.sent_at).toISOString() : null }));
  return { messages, older: rows.length > PAGE ? messages.at(-1)!.id : null, total };
}

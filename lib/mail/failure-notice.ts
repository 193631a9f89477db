import type { TransactionSql } from 'postgres';
import type { ImportProblem } from '@/db/schema';
import { enqueue } from '@/lib/jobs';
import type { AppContext } from '@/lib/runtime/context';

type FailedImport = {
  id: number;
  operation: string;
  items_total: number | null;
  items_applied: number;
  items_rejected: number;
  message: string | null;
  errors: ImportProblem[];
};

const SHOWN_ERRORS = 10;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function describeProblem(problem: ImportProblem): string {
  const where = [problem.position !== undefined ? `item ${problem.position + 1}` : null, problem.item_id ? `id ${problem.item_id}` : null]
    .filter(Boolean)
    .join(', ');
  return where ? `${where}: ${problem.message}` : problem.message;
}

/** How every failure notice's subject begins: the admin app finds an import's notices by it. */
export const failureNoticeSubjectStart = (importId: number) => `[Vitrine] Import #${importId} (`;

export function composeFailureNotice(shop: { id: string; name: string }, record: FailedImport, adminUrl?: string) {
  const subject = `${failureNoticeSubjectStart(record.id)}${record.operation}) of ${shop.name} failed`;
  const lines = [
    `Import #${record.id} of shop "${shop.name}" (${shop.id}) failed.`,
    '',
    `Operation: ${record.operation}`,
    `Items: ${record.items_total ?? 0} sent, ${record.items_applied} applied, ${record.items_rejected} rejected`,
    `What failed: ${record.message ?? 'unknown'}`,
  ];
  const shown = record.errors.slice(0, SHOWN_ERRORS).map(describeProblem);
  if (shown.length) {
    lines.push('', `First errors${record.items_rejected > shown.length ? ` (${shown.length} of ${record.items_rejected})` : ''}:`, ...shown.map((s) => `  - ${s}`));
  }
  if (adminUrl) lines.push('', `Details: ${adminUrl}`);
  const text = lines.join('\n');
  const html = `<div style="font-family:sans-serif">
<p>Import <b>#${record.id}</b> of shop <b>${escapeHtml(shop.name)}</b> (${escapeHtml(shop.id)}) failed.</p>
<table cellpadding="4">
<tr><td>Operation</td><td>${escapeHtml(record.operation)}</td></tr>
<tr><td>Items</td><td>${record.items_total ?? 0} sent, ${record.items_applied} applied, ${record.items_rejected} rejected</td></tr>
<tr><td>What failed</td><td>${escapeHtml(record.message ?? 'unknown')}</td></tr>
</table>
${shown.length ? `<p>First errors:</p><ul>${shown.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` : ''}
${adminUrl ? `<p><a href="${escapeHtml(adminUrl)}">Open the import in Vitrine</a></p>` : ''}
</div>`;
  return { subject, text, html };
}

/** Puts a failure notice for every staff member of the shop who takes technical notices. */
export async function queueFailureNotice(ctx: AppContext, tx: TransactionSql, shopId: string, record: FailedImport): Promise<void> {
  const recipients = await tx<{ email: string }[]>`
    select u.email from staff_users u
     where u.technical_notices
       and (u.is_admin or exists (select 1 from staff_shops s where s.user_id = u.id and s.shop_id = ${shopId}))
     order by u.email`;
  if (recipients.length === 0) return;
  const [shop] = await tx<{ id: string; name: string }[]>`select id, name from shops where id = ${shopId}`;
  const adminUrl = ctx.settings.publicUrl ? `${ctx.settings.publicUrl.replace(/\/$/, '')}/admin/shops/${shopId}/imports/${record.id}` : undefined;
  const message = composeFailureNotice(shop, record, adminUrl);
  for (const { email } of recipients) {
    const [row] = await tx<{ id: number }[]>`
      insert into email_outbox (shop_id, recipient, subject, text, html)
      values (${shopId}, ${email}, ${message.subject}, ${message.text}, ${message.html})
      returning id`;
    if (ctx.settings.mail.smtpUrl) await enqueue(ctx.boss, 'mailSend', { outboxId: row.id }, { tx });
  }
}

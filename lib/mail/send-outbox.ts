import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '@/lib/runtime/context';
import { metrics } from '@/lib/runtime/metrics';

let transport: { url: string; transporter: Transporter } | undefined;

function transporterFor(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

/** Sends one outbox message over SMTP_URL; a failure is recorded and thrown so the job retries. */
export async function sendOutboxMessage(ctx: AppContext, outboxId: number): Promise<void> {
  const smtpUrl = ctx.settings.mail.smtpUrl;
  if (!smtpUrl) {
    metrics().emails.inc({ outcome: 'kept' });
    return;
  }
  const [message] = await ctx.sql<{ recipient: string; subject: string; text: string; html: string; sent: boolean }[]>`
    select recipient, subject, text, html, sent_at is not null as sent from email_outbox where id = ${outboxId}`;
  if (!message || message.sent) return;
  try {
    await transporterFor(smtpUrl).sendMail({
      from: ctx.settings.mail.from,
      to: message.recipient,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    await ctx.sql`update email_outbox set sent_at = now(), error = null where id = ${outboxId}`;
    metrics().emails.inc({ outcome: 'sent' });
  } catch (error) {
    metrics().emails.inc({ outcome: 'failed' });
    await ctx.sql`update email_outbox set error = ${error instanceof Error ? error.message : String(error)} where id = ${outboxId}`;
    throw error;
  }
}

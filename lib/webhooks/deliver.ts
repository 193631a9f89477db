import crypto from 'node:crypto';
import type { WebhookAttempt } from '@/db/schema';
import { OutboundRefused, requestOutbound } from '@/lib/http/outbound';
import type { JobData } from '@/lib/jobs';
import type { AppContext } from '@/lib/runtime/context';
import { unsealSecret } from '@/lib/shops/secrets';
import { metrics } from '@/lib/runtime/metrics';

export function signBody(secret: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

async function recordAttempt(ctx: AppContext, shopId: string, importId: number, attempt: WebhookAttempt) {
  await ctx.sql`
    update imports set webhook_attempts = webhook_attempts || ${JSON.stringify([attempt])}::jsonb
     where shop_id = ${shopId} and id = ${importId}`;
}

/**
 * One delivery attempt of an import's webhook, signed with the shop's secret. A refused target
 * is recorded and never retried; any other failure is recorded and thrown, so the job retries
 * with back-off.
 */
export async function deliverWebhook(ctx: AppContext, job: JobData<'webhooksDeliver'>): Promise<void> {
  const [shop] = await ctx.sql<{ secret_sealed: string }[]>`select secret_sealed from shops where id = ${job.shopId}`;
  if (!shop) return;
  const body = JSON.stringify(job.body);
  const at = new Date().toISOString();
  let response;
  try {
    response = await requestOutbound(job.url, ctx.settings.webhooks, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Vitrine-Webhook/1',
        'X-Vitrine-Signature': signBody(unsealSecret(ctx.sealKey, shop.secret_sealed), body),
        'X-Vitrine-Import-Id': String(job.importId),
      },
      body,
      maxBytes: 64 * 1024,
    });
  } catch (error) {
    const refused = error instanceof OutboundRefused;
    const message = error instanceof Error ? error.message : String(error);
    // A refused target is recorded as failed (CONTRACT §3), the reason saying it was never sent.
    await recordAttempt(ctx, job.shopId, job.importId, { at, outcome: 'failed', message: refused ? `refused, never sent: ${message}` : message });
    metrics().webhookDeliveries.inc({ outcome: refused ? 'refused' : 'failed' });
    if (refused) return;
    throw error;
  }
  if (response.status >= 200 && response.status < 300) {
    await recordAttempt(ctx, job.shopId, job.importId, { at, outcome: 'delivered', status: response.status });
    metrics().webhookDeliveries.inc({ outcome: 'delivered' });
    return;
  }
  await recordAttempt(ctx, job.shopId, job.importId, { at, outcome: 'failed', status: response.status, message: `HTTP ${response.status}` });
  metrics().webhookDeliveries.inc({ outcome: 'failed' });
  throw new Error(`webhook answered HTTP ${response.status}`);
}

import type { WebhookAttempt } from '@/db/schema';

export type WebhookState =
  | { state: 'none' }
  | { state: 'waiting'; attempts: 0 } // sent when the import finishes
  | { state: 'queued'; attempts: 0 }
  | { state: 'delivered'; attempts: number; at: string }
  | { state: 'retrying'; attempts: number; last_error: string; next_attempt_at: string | null }
  | { state: 'gave_up'; attempts: number; last_error: string };

/** What pg-boss knows of the delivery job, when it still keeps it. */
export type DeliveryJob = { state: string; retry_limit: number; start_after: string };

function failureText(attempt: WebhookAttempt): string {
  const reason = attempt.message && attempt.message !== `HTTP ${attempt.status}` ? attempt.message : undefined;
  if (attempt.status) return reason ? `answered HTTP ${attempt.status}: ${reason}` : `answered HTTP ${attempt.status}`;
  return reason ?? 'failed';
}

/**
 * Where an import's webhook stands, from the attempts recorded on the import and, when given, the
 * delivery job: retried with back-off up to `retryLimit` more times, never for a refused address.
 */
export function webhookState(
  webhook: string | null,
  finished: boolean,
  attempts: WebhookAttempt[],
  retryLimit: number,
  job?: DeliveryJob | null,
): WebhookState {
  if (!webhook) return { state: 'none' };
  const last = attempts.at(-1);
  if (!last) return finished ? { state: 'queued', attempts: 0 } : { state: 'waiting', attempts: 0 };
  if (last.outcome === 'delivered') return { state: 'delivered', attempts: attempts.length, at: last.at };
  const lastError = failureText(last);
  const refused = last.message?.startsWith('refused') || last.outcome === 'refused';
  const limit = job?.retry_limit ?? retryLimit;
  const failed = attempts.filter((a) => a.outcome !== 'delivered').length;
  const jobDone = job ? job.state === 'failed' || job.state === 'cancelled' || job.state === 'completed' : false;
  if (refused || failed > limit || jobDone) return { state: 'gave_up', attempts: attempts.length, last_error: lastError };
  const pending = job && (job.state === 'retry' || job.state === 'created');
  return { state: 'retrying', attempts: attempts.length, last_error: lastError, next_attempt_at: pending ? job.start_after : null };
}

import type { Job } from 'pg-boss';
import { pruneImportBodies, runPendingImports, shopsWithPendingImports } from '@/lib/imports/run-imports';
import { jobs, setImportWaker, type JobData, type JobName } from '@/lib/jobs';
import { shopWaker } from '@/lib/imports/pipeline';
import { sendOutboxMessage } from '@/lib/mail/send-outbox';
import type { AppContext } from '@/lib/runtime/context';
import { deliverWebhook } from '@/lib/webhooks/deliver';
import { describeError, log } from '@/lib/runtime/log';

type Handler<K extends JobName> = (ctx: AppContext, data: JobData<K>) => Promise<void>;

// Every job name mapped to its handler: a thin call into a domain verb.
const handlers: { [K in JobName]: Handler<K> } = {
  importsApply: (ctx, data) => runPendingImports(ctx, data.shopId),
  webhooksDeliver: deliverWebhook,
  mailSend: (ctx, data) => sendOutboxMessage(ctx, data.outboxId),
};

const concurrency: { [K in JobName]: number } = { importsApply: 2, webhooksDeliver: 4, mailSend: 2 };


async function register<K extends JobName>(ctx: AppContext, key: K) {
  const definition = jobs[key];
  const handler = handlers[key];
  // NOTIFY wakes workers for new jobs only; retries due after a back-off are found by polling,
  // so the poll stays short even where NOTIFY is on.
  await ctx.boss.work(definition.name, { localConcurrency: concurrency[key], batchSize: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 2 }, async ([job]: Job<unknown>[]) => {
    const parsed = definition.schema.safeParse(job.data);
    // Bad job data never gets better: complete it with a log line rather than retry forever.
    if (!parsed.success) return log(`${definition.name} ${job.id}: invalid job data, dropped: ${parsed.error.message}`, undefined, 'warn');
    await handler(ctx, parsed.data as JobData<K>);
  });
}

/**
 * Starts every worker of this process and the sweep that picks up imports left pending by a
 * crash or a lost wake-up. Returns the stop function; pg-boss's own stop drains running jobs.
 */
export async function startWorkers(ctx: AppContext): Promise<() => Promise<void>> {
  for (const key of Object.keys(jobs) as JobName[]) await register(ctx, key);
  // Intake in this process wakes the applier directly (see setImportWaker), as the job would.
  const waker = shopWaker((shopId) => runPendingImports(ctx, shopId), {
    concurrency: concurrency.importsApply,
    retryMs: jobs.importsApply.queue.retryDelay! * 1000,
    onError: (shopId, error) => log(`applying imports of shop ${shopId}: ${describeError(error)}`, { shopId }, 'error'),
  });
  setImportWaker(waker.wake);
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    sweeping ??= (async () => {
      for (const shopId of await shopsWithPendingImports(ctx)) await runPendingImports(ctx, shopId);
    })()
      .catch((error) => log(`import sweep: ${describeError(error)}`, undefined, 'error'))
      .finally(() => {
        sweeping = undefined;
      });
  };
  sweep();
  const timer = setInterval(sweep, ctx.settings.importSweepSeconds * 1000);
  timer.unref();
  const prune = () =>
    pruneImportBodies(ctx, ctx.settings.importBodyRetentionDays).catch((error) => log(`pruning import bodies: ${describeError(error)}`, undefined, 'error'));
  void prune();
  const pruning = setInterval(prune, 3_600_000);
  pruning.unref();
  return async () => {
    setImportWaker(undefined);
    clearInterval(timer);
    clearInterval(pruning);
    await Promise.all([sweeping, waker.stop()]);
  };
}

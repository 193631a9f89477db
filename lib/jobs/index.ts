import { z } from 'zod';
import type { PgBoss, SendOptions, Queue } from 'pg-boss';
import type { TransactionSql } from 'postgres';
import { processWide } from '@/lib/process-wide';

// Job names and payloads. Handlers live in workers/, above the domain: this file imports no
// domain code, so the domain can enqueue without a dependency loop.
type JobDefinition<S extends z.ZodType> = { name: string; schema: S; queue: Omit<Queue, 'name'> };

function defineJob<S extends z.ZodType>(name: string, schema: S, queue: Omit<Queue, 'name'> = {}): JobDefinition<S> {
  return { name, schema, queue };
}

export const jobs = {
  // A wake-up for one shop: the handler applies that shop's pending imports in id order.
  importsApply: defineJob('imports.apply', z.object({ shopId: z.string() }), {
    policy: 'standard',
    retryLimit: 10,
    retryDelay: 5,
    expireInSeconds: 3600,
    notify: true,
  }),
  webhooksDeliver: defineJob(
    'webhooks.deliver',
    z.object({ shopId: z.string(), importId: z.number().int(), url: z.string(), body: z.record(z.string(), z.unknown()) }),
  ),
  mailSend: defineJob('mail.send', z.object({ outboxId: z.number().int() }), {
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    notify: true,
  }),
};

export type JobName = keyof typeof jobs;
export type JobData<K extends JobName> = z.infer<(typeof jobs)[K]['schema']>;

/** pg-boss's database interface over a postgres.js transaction: the job commits with the caller's work. */
export function inTransaction(tx: TransactionSql) {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await tx.unsafe(text, values as never[]),
    }),
  };
}

export async function enqueue<K extends JobName>(
  boss: PgBoss,
  job: K,
  data: JobData<K>,
  options: SendOptions & { tx?: TransactionSql } = {},
): Promise<void> {
  const definition = jobs[job];
  const payload = definition.schema.parse(data) as object;
  const { tx, ...sendOptions } = options;
  await boss.send(definition.name, payload, { ...sendOptions, ...(tx ? { db: inTransaction(tx) } : {}) });
}

/**
 * Creates the queues a fresh database lacks; `update` also sets this process's settings on queues
 * that exist. A short-lived CLI command does not update: its environment may not be the server's,
 * and it would set the webhooks' retry delay back to the default for every later delivery.
 */
export async function createQueues(boss: PgBoss, webhook: { retryLimit: number; retryDelaySeconds: number }, { update = true } = {}): Promise<void> {
  for (const [key, definition] of Object.entries(jobs)) {
    const queue =
      key === 'webhooksDeliver'
        ? { retryLimit: webhook.retryLimit, retryDelay: webhook.retryDelaySeconds, retryBackoff: true, notify: true }
        : definition.queue;
    await boss.createQueue(definition.name, queue);
    if (!update) continue;
    // Settings may have changed since the queue was created (retry delays, say).
    const { policy: _policy, ...changeable } = queue as Omit<Queue, 'name'>;
    await boss.updateQueue(definition.name, changeable);
  }
}

// A process that applies imports itself wakes its own applier when intake has stored an import:
// no job row to write in intake's transaction (7 ms of a re-send's ~70 ms answer), none to
// fetch and complete. The imports table is what is durable; a wake-up lost in a crash is made
// good by the workers' sweep of pending imports. Set by workers/, one per process
// (lib/process-wide.ts): Next.js loads this module once per route bundle.
const WAKER = processWide<(shopId: string) => void>('import-waker');

export function setImportWaker(waker: ((shopId: string) => void) | undefined): void {
  WAKER.set(waker);
}

/** This process's import waker, when it applies imports itself. */
export function importWaker(): ((shopId: string) => void) | undefined {
  return WAKER.get();
}

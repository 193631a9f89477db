import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { processWide } from '@/lib/process-wide';

// The request being answered, for what is logged while answering it: bin/start.ts runs each
// request in this context (route handlers included), so every line logged meanwhile, a 500's
// among them, carries the id the client sees in X-Request-Id. One store per process: route
// bundles share it.

// `answered`: its answer is sent. Work the request started that goes on after (a timer, a thread's
// events, a refresh) runs in the same context; its lines then carry no id that is no longer theirs.
// `error`: the message of an error answer, for the request's line.
export type RequestContext = { requestId: string; shopId?: string; error?: string; answered?: boolean };
const STORE = processWide<AsyncLocalStorage<RequestContext>>('request-context');
const store = () => STORE.getOrMake(() => new AsyncLocalStorage<RequestContext>());

/** A client's X-Request-Id that is echoed: it goes into a header and log lines as it is. */
export const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The id a client sent in X-Request-Id when it is a sane one (1 to 128 of `A-Za-z0-9_.:-`), else a new UUID. */
export function requestIdFrom(sent: string | string[] | undefined): string {
  const value = Array.isArray(sent) ? sent[0] : sent;
  return value && SANE_REQUEST_ID.test(value) ? value : crypto.randomUUID();
}

/** Runs `work` as the request `context`. */
export function inRequest<T>(context: RequestContext, work: () => T): T {
  return store().run(context, work);
}

/** The request being answered, if any. */
export function currentRequest(): RequestContext | undefined {
  const context = store().getStore();
  return context?.answered ? undefined : context;
}

/** Notes the shop the request being answered turned out to be for (its log line then names it). */
export function noteRequestShop(shopId: string): void {
  const context = currentRequest();
  if (context) context.shopId = shopId;
}

/** Notes the message the request being answered is refused with (its log line then says why). */
export function noteRequestError(message: string): void {
  const context = currentRequest();
  if (context) context.error = message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

import dns from 'node:dns';
import { processWide } from '@/lib/process-wide';

// dns.lookup runs getaddrinfo on libuv's thread pool (4 threads), the pool that scrypt, Brotli and
// zlib share: a resolver that answers slowly would hold every thread and stall sign-ins and
// imports. At most two look-ups run at once, the rest wait their turn, and a caller gives up
// after its timeout; a look-up that outlives its caller still holds its slot until it returns,
// so the two threads left are never taken.
export const LOOKUPS_AT_ONCE = 2;
const MAX_WAITING = 500;

type Lookup = (hostname: string, options: dns.LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

export class LookupLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly lookup: Lookup = dns.lookup as unknown as Lookup) {}

  /** All addresses of `hostname`, or an ETIMEOUT error after `timeoutMs` (queueing included). */
  resolve(hostname: string, options: dns.LookupOptions, timeoutMs: number): Promise<dns.LookupAddress[]> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error: Error | null, addresses?: dns.LookupAddress[]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(addresses!);
      };
      const start = () => {
        // Given up while waiting: the turn passes to the next.
        if (settled) return this.release();
        this.running++;
        this.lookup(hostname, { ...options, all: true }, (error, addresses) => {
          this.release();
          settle(error, addresses);
        });
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(start);
        if (index >= 0) this.waiting.splice(index, 1);
        settle(Object.assign(new Error(`DNS look-up of ${hostname} took longer than ${timeoutMs} ms`), { code: 'ETIMEOUT' }));
      }, timeoutMs);
      if (this.running < LOOKUPS_AT_ONCE) start();
      else if (this.waiting.length >= MAX_WAITING) settle(Object.assign(new Error(`too many DNS look-ups waiting (${MAX_WAITING})`), { code: 'EBUSY' }));
      else this.waiting.push(start);
    });
  }

  /** Look-ups running now (for tests). */
  get inFlight(): number {
    return this.running;
  }

  private release(): void {
    this.running--;
    const next = this.waiting.shift();
    if (next) next();
  }
}

// One per process (lib/process-wide.ts): Next.js loads this module once per route bundle.
const LIMITER = processWide<LookupLimiter>('lookup-limiter');

export function lookupLimiter(): LookupLimiter {
  return LIMITER.getOrMake(() => new LookupLimiter());
}

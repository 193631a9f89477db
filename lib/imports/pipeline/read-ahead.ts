// The applier reads a shop's next imports while it applies the one before: most of applying
// waits for PostgreSQL, and a body that was not handed over costs ~100 ms to read back at 5,000
// items. Two are read ahead: the next one, and the one after it, whose items the preparing thread
// takes on as soon as it has done the next one's (with one, the applier waited for the thread
// whenever it had fallen behind). When there is none yet (the applier keeps up with intake), the
// next one is read as soon as intake in this process accepts it.

import { SUMMARY_KEYS, type SentItems } from '@/lib/catalog/sent-items';
import { scanJson } from '@/lib/http/json-scan';
import type { AppContext } from '@/lib/runtime/context';
import { decompressBody, type BodyEncoding } from './body-codec';
import { nextArrival, takeOver, type HandedBody, type TakenBody } from './handoff';
import { prepareAhead, type PreparedAhead } from './prepare-ahead';

/** An import read ahead: its body (`stored`: read from storage), and its items being prepared when it stores products. */
export type ReadAhead = { id: number; body: HandedBody; stored: boolean; items?: SentItems; prepared?: PreparedAhead };

/**
 * What the applier tells reading ahead of its imports (lib/imports/run-imports.ts): the shop's
 * next pending import after an id, and the items of an import's body when it stores products.
 */
export type PendingImports<Pending extends { id: number }> = {
  after: (importId: number) => Promise<Pending | undefined>;
  itemsOf: (pending: Pending, body: HandedBody) => SentItems | undefined;
};

/** A body taken over, decompressed when it was kept as stored. */
async function unpacked(taken: TakenBody): Promise<HandedBody> {
  return 'raw' in taken ? taken : { raw: await decompressBody(taken.stored.body, taken.stored.encoding), members: taken.members };
}

async function readStoredBody(ctx: Pick<AppContext, 'sql'>, shopId: string, importId: number): Promise<HandedBody> {
  const [stored] = await ctx.sql<{ body: Buffer; encoding: BodyEncoding }[]>`
    select body, encoding from import_bodies where shop_id = ${shopId} and import_id = ${importId}`;
  const raw = await decompressBody(stored.body, stored.encoding);
  // Intake accepted it as a JSON object.
  return { raw, members: scanJson(raw, SUMMARY_KEYS)! };
}

/**
 * The body of the import about to be applied, and how it came, for the import's timings: read
 * ahead, handed over by intake in this process (as it came, or as stored), or read from storage.
 */
export async function importBody(ctx: Pick<AppContext, 'sql'>, shopId: string, importId: number, ahead?: ReadAhead): Promise<{ body: HandedBody; how: string }> {
  if (ahead) return { body: ahead.body, how: ahead.stored ? 'body read ahead from storage' : 'body handed over ahead' };
  const taken = takeOver(importId);
  if (taken) return { body: await unpacked(taken), how: 'raw' in taken ? 'body handed over' : 'body handed over compressed' };
  return { body: await readStoredBody(ctx, shopId, importId), how: 'body read' };
}

/** Reads ahead of each import one applier applies, in order, for one shop. */
export class ReadingAhead<Pending extends { id: number }> {
  private ahead: ReadAhead | undefined;
  private further: Promise<ReadAhead | undefined> = Promise.resolve(undefined);
  private following: Promise<ReadAhead | undefined> = Promise.resolve(undefined);
  private applied: () => void = () => {};

  constructor(
    private readonly ctx: Pick<AppContext, 'sql'>,
    private readonly shopId: string,
    private readonly pending: PendingImports<Pending>,
  ) {}

  /**
   * What was read ahead of the import about to be applied (undefined: nothing), and starts
   * reading the two after it, listening for arrivals until `applied()`.
   */
  before(importId: number): ReadAhead | undefined {
    const read = this.ahead?.id === importId ? this.ahead : undefined;
    const done = new Promise<void>((resolve) => (this.applied = resolve));
    // The import after this one was read while the one before was applied, if it had come by then
    // (it is the import after `ahead`: of no use unless `ahead` is this one).
    const afterThis = read ? this.further : Promise.resolve(undefined);
    const following = afterThis.then((next) => next ?? this.readAfter(importId, done));
    this.following = following;
    this.further = following.then((next) => (next ? this.readAfter(next.id, done) : undefined));
    return read;
  }

  /** The import is applied (or failed): no more listening for the next one to arrive. */
  after(): void {
    this.applied();
  }

  /** Waits until the next import is read, if there is one. */
  async caughtUp(): Promise<void> {
    this.ahead = await this.following;
  }

  /**
   * The body of the import after `importId`, read (and its items prepared) while an import before
   * it is applied; if none is pending, the next one intake in this process accepts, until `applied`
   * settles. Nothing on failure: the applier then reads it itself.
   */
  private async readAfter(importId: number, applied: Promise<void>): Promise<ReadAhead | undefined> {
    const { ctx, shopId } = this;
    try {
      let following: Pending | undefined;
      for (;;) {
        // Listening before looking: an import accepted in between is heard.
        const arrival = nextArrival(shopId, applied);
        following = await this.pending.after(importId);
        if (following || !(await arrival)) break;
      }
      if (!following) return undefined;
      const handed = takeOver(following.id);
      const body = handed ? await unpacked(handed) : await readStoredBody(ctx, shopId, following.id);
      const items = this.pending.itemsOf(following, body);
      const prepared = items && prepareAhead(shopId, items, body.raw.length);
      return { id: following.id, body, stored: handed === undefined, items, prepared };
    } catch {
      return undefined;
    }
  }
}

import { TimeSlice, yieldToEventLoop } from '@/lib/runtime/turns';
import { peekKnownStates } from './known-states';
import { PreparedBatch } from './prepared-batch';
import type { SentItems } from './sent-items';

/**
 * Starts preparing the items of a shop's next import (PreparedBatch) while the import before it
 * is applied, in turns of the event loop: that import mostly waits for PostgreSQL meanwhile.
 * Skipped: items whose digest is the one this process knows stored for their id (sent
 * unchanged: nothing to prepare). That is only a guess (the states may be as of another
 * version): an item skipped but needed is prepared when reached, one prepared but not needed
 * costs only the work. The applier takes the batch (`items.takePrepared`), which stops this.
 * `bytes`: the body's size, to size the batch's buffer. Settles when it has stopped.
 */
export function prepareAhead(shopId: string, items: SentItems, bytes: number): Promise<void> {
  // The fields take ~1.45 times the items' text in the benchmark's catalog (data is the text; offers and
  // the other columns add to it): room enough that the buffer seldom grows (copying it all).
  const batch = new PreparedBatch(Math.ceil(bytes * 1.6));
  let taken = false;
  let stopped = false;
  items.takePrepared = () => {
    if (taken) return undefined;
    taken = stopped = true;
    return batch;
  };
  const unchanged = (position: number): boolean => {
    const states = peekKnownStates(shopId);
    const id = items.id(position);
    if (states === undefined || id === undefined) return false;
    const entry = states.find(id);
    return entry >= 0 && states.digest(entry) === items.digest(position);
  };
  return (async () => {
    // Short turns: the import being applied, and intake, come first.
    const slice = new TimeSlice(1, 4);
    for (let position = 0; position < items.count && !stopped; position++) {
      // Wanted in any case, and made once (makeDigests then finds them made).
      items.digest(position);
      if (!unchanged(position)) batch.prepare(position, items.value(position), () => items.text(position));
      if (slice.due()) await yieldToEventLoop();
    }
  })().catch(() => {
    // The applier prepares the rest itself, and meets the same failure if it is the item's.
    stopped = true;
  });
}

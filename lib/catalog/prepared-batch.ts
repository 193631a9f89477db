import type { ImportProblem } from '@/db/schema';
import { BinaryRows } from './copy-rows';
import { TokenNumbers } from './facet-dictionary';
import { readItem } from './item-bytes';
import { validateAndPrepare, writeFields } from './prepared-items';
import type { SentItems } from './sent-items';

// An import's items validated and written as COPY fields, by a function of each item's text
// alone: nothing here depends on what the catalog holds. The applier can therefore prepare the
// next import's items while the one before is still being stored (most of which is PostgreSQL's
// work), and its transaction then only puts each row together: the row's prefix (shop or
// position), these fields, the facet numbers, the version.

/** An item prepared: where its fields and offers' fields are, and what the applier reads of it. */
export type BatchEntry =
  | {
      ok: true;
      id: string;
      available: boolean;
      categories: readonly string[];
      offerLocations: readonly string[];
      // FIELD_COLUMNS' fields at [fieldsStart, fieldsEnd).
      fieldsStart: number;
      fieldsEnd: number;
      // Its facet tokens as numbers of this batch (token(n) gives the text); null when one
      // cannot be stored.
      facets: number[] | null;
    }
  | { ok: false; problem: ImportProblem };

/**
 * A batch as it crosses between threads (PreparedBatch.parts, fromParts): numbers and strings in
 * a few arrays, which a thread copies in one go (5,000 entries as objects took ~15 ms to copy).
 */
export type BatchParts = {
  // A Buffer, or the Uint8Array a thread's copy of one becomes; or a view of memory both threads
  // share (prepare-ahead.ts's slots).
  arena: Uint8Array;
  // For each item prepared, by position: its position, then 0 when rejected, else 1,
  // available, fieldsStart, fieldsEnd, the number of facets (-1: null) and the facets, the
  // number of categories, the number of offer locations.
  numbers: Int32Array;
  // The id, categories and offer locations of each accepted item, one after another.
  strings: string;
  lengths: Int32Array;
  // Of each rejected item, in order.
  problems: ImportProblem[];
  texts: string[];
};

/** The entries BatchParts hold, by position. */
function entriesOf({ numbers, strings, lengths, problems }: BatchParts): (BatchEntry | undefined)[] {
  const entries: (BatchEntry | undefined)[] = [];
  let at = 0;
  let string = 0;
  let from = 0;
  let problem = 0;
  const ints = (count: number): number[] => {
    const list = new Array<number>(count);
    for (let i = 0; i < count; i++) list[i] = numbers[at++];
    return list;
  };
  const text = () => strings.slice(from, (from += lengths[string++]));
  const texts = (count: number): string[] => {
    const list = new Array<string>(count);
    for (let i = 0; i < count; i++) list[i] = text();
    return list;
  };
  while (at < numbers.length) {
    const position = numbers[at++];
    if (numbers[at++] === 0) {
      entries[position] = { ok: false, problem: problems[problem++] };
      continue;
    }
    const available = numbers[at++] === 1;
    const fieldsStart = numbers[at++];
    const fieldsEnd = numbers[at++];
    const facetCount = numbers[at++];
    const facets = facetCount < 0 ? null : ints(facetCount);
    const categoryCount = numbers[at++];
    const offerLocationCount = numbers[at++];
    const id = text();
    entries[position] = { ok: true, id, available, fieldsStart, fieldsEnd, facets, categories: texts(categoryCount), offerLocations: texts(offerLocationCount) };
  }
  return entries;
}

// A batch's memory given back when the batch is collected without being released (a read-ahead
// never taken): the unregister token is the batch.
const unreleased = new FinalizationRegistry<() => void>((giveBack) => giveBack());

export class PreparedBatch {
  private arena: BinaryRows;
  private released = false;
  // Gives the arena's memory back for reuse (fromParts), once.
  private giveBack?: () => void;
  private readonly entries: (BatchEntry | undefined)[];
  // The batch's own numbering of the tokens its items carry, and their texts by number.
  private readonly tokens = new TokenNumbers();
  private readonly texts: string[];
  /** Where its items were prepared: on this thread, or on another (fromParts). */
  readonly madeHere: boolean;

  // `bytes`: about how many bytes its fields will take (the items' text is a good guess).
  // `memory`: where to write them while they fit (BinaryRows.into).
  constructor(bytes = 1 << 20, parts?: BatchParts, memory?: Buffer) {
    this.arena = parts
      ? BinaryRows.holding(Buffer.from(parts.arena.buffer, parts.arena.byteOffset, parts.arena.byteLength))
      : memory
        ? BinaryRows.into(memory)
        : new BinaryRows(bytes);
    this.entries = parts ? entriesOf(parts) : [];
    this.madeHere = parts === undefined;
    this.texts = parts?.texts ?? [];
    // Tokens numbered on the thread that made the parts are known here by their text only: an
    // item prepared here afterwards numbers its tokens from the next number.
    for (const text of this.texts) this.tokens.numberOf(text);
    this.tokens.onAdded = (token) => this.texts.push(token);
  }

  /**
   * The batch made on another thread from its parts. `giveBack`: called once its arena's memory
   * is no longer read (release(), or the batch collected without it), for memory that is reused.
   */
  static fromParts(parts: BatchParts, giveBack?: () => void): PreparedBatch {
    const batch = new PreparedBatch(0, parts);
    if (giveBack) {
      let given = false;
      const once = () => {
        if (!given) giveBack();
        given = true;
      };
      batch.giveBack = once;
      unreleased.register(batch, once, batch);
    }
    return batch;
  }

  /** Whether its arena is in `memory` (made with it as the constructor's `memory`, and not outgrown). */
  wroteIn(memory: ArrayBufferLike): boolean {
    return this.arena.isIn(memory);
  }

  /** Done with: its fields are not read again, and the memory they are in may be reused. */
  release(): void {
    this.released = true;
    this.arena = new BinaryRows();
    if (this.giveBack) {
      unreleased.unregister(this);
      this.giveBack();
      this.giveBack = undefined;
    }
  }

  /** What the batch holds, to hand to another thread (the arena's memory moves with it: this batch is done). */
  parts(): BatchParts {
    let numbers = new Int32Array(1 << 16);
    let at = 0;
    const put = (value: number) => {
      if (at === numbers.length) {
        const grown = new Int32Array(2 * numbers.length);
        grown.set(numbers);
        numbers = grown;
      }
      numbers[at++] = value;
    };
    const strings: string[] = [];
    const problems: ImportProblem[] = [];
    // forEach skips the positions not prepared.
    (this.entries as BatchEntry[]).forEach((entry, position) => {
      put(position);
      if (!entry.ok) {
        put(0);
        problems.push(entry.problem);
        return;
      }
      const { facets, categories, offerLocations } = entry;
      put(1);
      put(entry.available ? 1 : 0);
      put(entry.fieldsStart);
      put(entry.fieldsEnd);
      put(facets === null ? -1 : facets.length);
      if (facets !== null) for (const number of facets) put(number);
      put(categories.length);
      put(offerLocations.length);
      strings.push(entry.id);
      for (const category of categories) strings.push(category);
      for (const location of offerLocations) strings.push(location);
    });
    const lengths = new Int32Array(strings.length);
    for (let i = 0; i < strings.length; i++) lengths[i] = strings[i].length;
    return { arena: this.arena.take(), numbers: numbers.slice(0, at), strings: strings.join(''), lengths, problems, texts: this.texts };
  }

  /** The item at `position` if prepared. */
  entry(position: number): BatchEntry | undefined {
    return this.entries[position];
  }

  /** Prepares the item at `position` (`raw` as JSON.parse gives it; `sentText` its text as sent). */
  prepare(position: number, raw: unknown, sentText?: () => string | undefined): BatchEntry {
    if (this.released) throw new Error('a prepared batch was written after its release');
    const valid = validateAndPrepare(raw, position, sentText);
    if (!valid.ok) return (this.entries[position] = { ok: false, problem: valid.problem });
    const { item, prepared } = valid;
    const fieldsStart = this.arena.length;
    writeFields(this.arena, prepared.fields);
    const fieldsEnd = this.arena.length;
    return (this.entries[position] = {
      ok: true,
      id: item.id,
      available: prepared.available,
      categories: item.categories,
      offerLocations: (item.locations ?? []).map((offer) => offer.location),
      fieldsStart,
      fieldsEnd,
      facets: this.tokens.encodeList(prepared.facets),
    });
  }

  /**
   * Prepares the item whose JSON text is body[start, end) (an element of a body scanJson
   * accepted): read from its bytes when it is the common case, else parsed and checked.
   */
  prepareSent(position: number, body: Buffer, start: number, end: number): BatchEntry {
    if (this.released) throw new Error('a prepared batch was written after its release');
    const fieldsStart = this.arena.length;
    const read = readItem(body, start, end, this.arena, this.tokens);
    if (read === undefined) {
      const text = body.toString('utf8', start, end);
      return this.prepare(position, JSON.parse(text), () => text);
    }
    return (this.entries[position] = { ok: true, ...read, fieldsStart, fieldsEnd: this.arena.length });
  }

  /** Prepares the item at `position` of `items`: from its bytes when they are known. */
  prepareFrom(items: SentItems, position: number): BatchEntry {
    const source = items.source;
    if (source === undefined) return this.prepare(position, items.value(position), () => items.text(position));
    return this.prepareSent(position, source.body, source.spans[2 * position], source.spans[2 * position + 1]);
  }

  /** The text of the batch's token `number`. */
  token(number: number): string {
    return this.texts[number];
  }

  /** The entry's FIELD_COLUMNS fields (valid until the next prepare). */
  fields(entry: BatchEntry & { ok: true }): Buffer {
    if (this.released) throw new Error('a prepared batch was read after its release');
    return this.arena.written(entry.fieldsStart, entry.fieldsEnd);
  }
}

import type { ImportProblem } from '@/db/schema';
import { BinaryRows } from './copy-rows';
import { TokenNumbers } from './facet-dictionary';
import { grown } from './hash-slots';
import { readItem } from './item-bytes';
import { validateAndPrepare, writeFields } from './prepared-items';
import { readSettings } from '@/lib/runtime/settings';

/** What `prepareFrom` reads of the sent items (`SentItems` has it; the preparing thread gives no more). */
export type ItemsToPrepare = {
  source?: { body: Buffer; spans: Int32Array };
  value(position: number): unknown;
  text(position: number): string | undefined;
};

// ITEM_READER=parse: no item is read from its bytes (read once: the preparing thread has its own copy).
const BYTE_READER = readSettings().itemReader === 'bytes';

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
  // share (lib/imports/pipeline/prepare-ahead.ts's slots).
  arena: Uint8Array;
  // For each item prepared, by position: its position, then 0 when rejected, else 1,
  // available, fieldsStart, fieldsEnd, the number of facets (-1: null) and the facets, the
  // number of categories, the number of offer locations.
  numbers: Int32Array<ArrayBuffer>;
  // The id, categories and offer locations of each accepted item, one after another.
  strings: string;
  lengths: Int32Array;
  // Of each rejected item, in order.
  problems: ImportProblem[];
  texts: string[];
};

// A batch's memory given back when the batch is collected without being released (a read-ahead
// never taken): the unregister token is the batch.
const unreleased = new FinalizationRegistry<() => void>((giveBack) => giveBack());

export class PreparedBatch {
  private arena: BinaryRows;
  private released = false;
  // Gives the arena's memory back for reuse (fromParts), once.
  private giveBack?: () => void;
  // The entries, as BatchParts' numbers (in the order prepared), and by position where each
  // starts (+ 1; 0: not prepared) and its first string (a rejected item's: its problem). Kept as
  // numbers rather than 5,000 objects an import, which lived as long as the batch: each
  // collection of the young generation copied them, and then the old generation held them
  // (~4 MB of a preparing thread's ~14 MB between collections).
  private numbers: Int32Array<ArrayBuffer>;
  private used: number;
  private starts = new Int32Array(0);
  private firsts = new Int32Array(0);
  // Strings [0, partsStrings) are the parts' (one string, each one's offset and length); those
  // after, made here, are in `madeStrings`.
  private readonly partsText: string;
  private readonly partsOffsets: Int32Array;
  private readonly partsLengths: Int32Array;
  private readonly partsStrings: number;
  private readonly madeStrings: string[] = [];
  private readonly problems: ImportProblem[];
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
    this.madeHere = parts === undefined;
    this.numbers = parts?.numbers ?? new Int32Array(1 << 12);
    this.used = parts?.numbers.length ?? 0;
    this.partsText = parts?.strings ?? '';
    this.partsLengths = parts?.lengths ?? new Int32Array(0);
    this.partsStrings = this.partsLengths.length;
    this.partsOffsets = new Int32Array(this.partsStrings);
    for (let i = 1; i < this.partsStrings; i++) this.partsOffsets[i] = this.partsOffsets[i - 1] + this.partsLengths[i - 1];
    this.problems = parts?.problems ?? [];
    if (parts) this.indexParts();
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
    const lengths = new Int32Array(this.partsStrings + this.madeStrings.length);
    lengths.set(this.partsLengths);
    for (let i = 0; i < this.madeStrings.length; i++) lengths[this.partsStrings + i] = this.madeStrings[i].length;
    return {
      arena: this.arena.take(),
      numbers: this.numbers.slice(0, this.used),
      strings: this.partsText + this.madeStrings.join(''),
      lengths,
      problems: this.problems,
      texts: this.texts,
    };
  }

  /** The item at `position` if prepared (made anew at each call: keep it no longer than needed). */
  entry(position: number): BatchEntry | undefined {
    const start = position < this.starts.length ? this.starts[position] - 1 : -1;
    // Not an index prepared (NaN for one that is not an index at all).
    if (!(start >= 0)) return undefined;
    const numbers = this.numbers;
    let at = start + 1;
    if (numbers[at++] === 0) return { ok: false, problem: this.problems[this.firsts[position]] };
    const available = numbers[at++] === 1;
    const fieldsStart = numbers[at++];
    const fieldsEnd = numbers[at++];
    const facetCount = numbers[at++];
    let facets: number[] | null = null;
    if (facetCount >= 0) {
      facets = new Array<number>(facetCount);
      for (let i = 0; i < facetCount; i++) facets[i] = numbers[at++];
    }
    const categoryCount = numbers[at++];
    const offerLocationCount = numbers[at];
    let string = this.firsts[position];
    const id = this.string(string++);
    const categories = new Array<string>(categoryCount);
    for (let i = 0; i < categoryCount; i++) categories[i] = this.string(string++);
    const offerLocations = new Array<string>(offerLocationCount);
    for (let i = 0; i < offerLocationCount; i++) offerLocations[i] = this.string(string++);
    return { ok: true, id, available, categories, offerLocations, fieldsStart, fieldsEnd, facets };
  }

  /** Prepares the item at `position` (`raw` as JSON.parse gives it; `sentText` its text as sent). */
  prepare(position: number, raw: unknown, sentText?: () => string | undefined): BatchEntry {
    if (this.released) throw new Error('a prepared batch was written after its release');
    const valid = validateAndPrepare(raw, position, sentText);
    if (!valid.ok) {
      this.putProblem(position, valid.problem);
      return { ok: false, problem: valid.problem };
    }
    const { item, prepared } = valid;
    const fieldsStart = this.arena.length;
    writeFields(this.arena, prepared.fields);
    const entry: BatchEntry = {
      ok: true,
      id: item.id,
      available: prepared.available,
      categories: item.categories,
      offerLocations: (item.locations ?? []).map((offer) => offer.location),
      fieldsStart,
      fieldsEnd: this.arena.length,
      facets: this.tokens.encodeList(prepared.facets),
    };
    this.putEntry(position, entry);
    return entry;
  }

  /**
   * Prepares the item whose JSON text is body[start, end) (an element of a body scanJson
   * accepted): read from its bytes when it is the common case, else parsed and checked.
   */
  prepareSent(position: number, body: Buffer, start: number, end: number): BatchEntry {
    if (this.released) throw new Error('a prepared batch was written after its release');
    const fieldsStart = this.arena.length;
    const read = BYTE_READER ? readItem(body, start, end, this.arena, this.tokens) : undefined;
    if (read === undefined) {
      const text = body.toString('utf8', start, end);
      return this.prepare(position, JSON.parse(text), () => text);
    }
    const entry: BatchEntry = { ok: true, ...read, fieldsStart, fieldsEnd: this.arena.length };
    this.putEntry(position, entry);
    return entry;
  }

  /** Prepares the item at `position` of `items` (a `SentItems`): from its bytes when they are known. */
  prepareFrom(items: ItemsToPrepare, position: number): BatchEntry {
    const source = items.source;
    if (source === undefined) return this.prepare(position, items.value(position), () => items.text(position));
    return this.prepareSent(position, source.body, source.spans[2 * position], source.spans[2 * position + 1]);
  }

  /** String `i` of the batch's entries. */
  private string(i: number): string {
    if (i >= this.partsStrings) return this.madeStrings[i - this.partsStrings];
    const from = this.partsOffsets[i];
    return this.partsText.slice(from, from + this.partsLengths[i]);
  }

  /** Room for `count` more numbers, and for `position` in the index. */
  private reserve(position: number, count: number): void {
    if (this.used + count > this.numbers.length) this.numbers = grown(this.numbers, this.used + count);
    if (position >= this.starts.length) {
      this.starts = grown(this.starts, Math.max(position + 1, 1024));
      this.firsts = grown(this.firsts, Math.max(position + 1, 1024));
    }
  }

  private putEntry(position: number, entry: BatchEntry & { ok: true }): void {
    const { facets, categories, offerLocations } = entry;
    this.reserve(position, 8 + (facets?.length ?? 0));
    const numbers = this.numbers;
    this.starts[position] = this.used + 1;
    this.firsts[position] = this.partsStrings + this.madeStrings.length;
    let at = this.used;
    numbers[at++] = position;
    numbers[at++] = 1;
    numbers[at++] = entry.available ? 1 : 0;
    numbers[at++] = entry.fieldsStart;
    numbers[at++] = entry.fieldsEnd;
    numbers[at++] = facets === null ? -1 : facets.length;
    if (facets !== null) for (let i = 0; i < facets.length; i++) numbers[at++] = facets[i];
    numbers[at++] = categories.length;
    numbers[at++] = offerLocations.length;
    this.used = at;
    this.madeStrings.push(entry.id);
    for (const category of categories) this.madeStrings.push(category);
    for (const location of offerLocations) this.madeStrings.push(location);
  }

  private putProblem(position: number, problem: ImportProblem): void {
    this.reserve(position, 2);
    this.starts[position] = this.used + 1;
    this.firsts[position] = this.problems.length;
    this.numbers[this.used++] = position;
    this.numbers[this.used++] = 0;
    this.problems.push(problem);
  }

  /** The index of the entries the parts hold (the last of a position prepared twice counts). */
  private indexParts(): void {
    const numbers = this.numbers;
    let at = 0;
    let string = 0;
    let problem = 0;
    while (at < this.used) {
      const position = numbers[at];
      this.reserve(position, 0);
      this.starts[position] = at + 1;
      if (numbers[at + 1] === 0) {
        this.firsts[position] = problem++;
        at += 2;
        continue;
      }
      this.firsts[position] = string;
      at += 6 + Math.max(0, numbers[at + 5]);
      string += 1 + numbers[at] + numbers[at + 1];
      at += 2;
    }
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

import type { ImportProblem } from '@/db/schema';
import { BinaryRows } from './copy-rows';
import { TokenNumbers } from './facet-dictionary';
import { validateAndPrepare, writeFields, writeOfferFields } from './prepared-items';

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
      // FIELD_COLUMNS' fields at [fieldsStart, fieldsEnd); its offers' OFFER_COLUMNS fields
      // follow, offer i ending at offerEnds[i].
      fieldsStart: number;
      fieldsEnd: number;
      offerEnds: number[];
      // Its facet tokens as numbers of this batch (token(n) gives the text); null when one
      // cannot be stored.
      facets: number[] | null;
    }
  | { ok: false; problem: ImportProblem };

export class PreparedBatch {
  private readonly arena: BinaryRows;
  private readonly entries: (BatchEntry | undefined)[] = [];
  // The batch's own numbering of the tokens its items carry, and their texts by number.
  private readonly tokens = new TokenNumbers();
  private readonly texts: string[] = [];

  // `bytes`: about how many bytes its fields will take (the items' text is a good guess).
  constructor(bytes = 1 << 20) {
    this.arena = new BinaryRows(bytes);
    this.tokens.onAdded = (token) => this.texts.push(token);
  }

  /** The item at `position` if prepared. */
  entry(position: number): BatchEntry | undefined {
    return this.entries[position];
  }

  /** Prepares the item at `position` (`raw` as JSON.parse gives it; `sentText` its text as sent). */
  prepare(position: number, raw: unknown, sentText?: () => string | undefined): BatchEntry {
    const valid = validateAndPrepare(raw, position, sentText);
    if (!valid.ok) return (this.entries[position] = { ok: false, problem: valid.problem });
    const { item, prepared } = valid;
    const fieldsStart = this.arena.length;
    writeFields(this.arena, prepared.fields);
    const fieldsEnd = this.arena.length;
    const offerEnds: number[] = [];
    for (const offer of prepared.offers) {
      writeOfferFields(this.arena, offer);
      offerEnds.push(this.arena.length);
    }
    return (this.entries[position] = {
      ok: true,
      id: item.id,
      available: prepared.available,
      categories: item.categories,
      offerLocations: (item.locations ?? []).map((offer) => offer.location),
      fieldsStart,
      fieldsEnd,
      offerEnds,
      facets: this.tokens.encodeList(prepared.facets),
    });
  }

  /** The text of the batch's token `number`. */
  token(number: number): string {
    return this.texts[number];
  }

  /** The entry's FIELD_COLUMNS fields (valid until the next prepare). */
  fields(entry: BatchEntry & { ok: true }): Buffer {
    return this.arena.written(entry.fieldsStart, entry.fieldsEnd);
  }

  /** The OFFER_COLUMNS fields of the entry's offer `i` (valid until the next prepare). */
  offer(entry: BatchEntry & { ok: true }, i: number): Buffer {
    return this.arena.written(i === 0 ? entry.fieldsEnd : entry.offerEnds[i - 1], entry.offerEnds[i]);
  }
}

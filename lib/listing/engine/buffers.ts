// Typed arrays a query works in, kept with an index and reused by its next query (queries run
// one at a time). Large per-query arrays are otherwise garbage that brings full collections in
// the middle of queries: a location query at 1,000,000 products made ~5 MB of it.

type Kind = Int32Array | Uint32Array | Float64Array;

export class Buffers {
  private readonly kept = new Map<string, Kind>();

  /** An array of `length` under `name`, holding what an earlier query left: write before reading. */
  int32(name: string, length: number): Int32Array {
    return this.take(name, length, Int32Array);
  }

  uint32(name: string, length: number): Uint32Array {
    return this.take(name, length, Uint32Array);
  }

  float64(name: string, length: number): Float64Array {
    return this.take(name, length, Float64Array);
  }

  /** A copy of `source` under `name`. */
  copy(name: string, source: Uint32Array): Uint32Array {
    const copy = this.uint32(name, source.length);
    copy.set(source);
    return copy;
  }

  private take<T extends Kind>(name: string, length: number, make: new (length: number) => T): T {
    let buffer = this.kept.get(name);
    if (!(buffer instanceof make) || buffer.length < length) {
      // Grown by a quarter at least, so a shop's queries soon stop allocating.
      buffer = new make(Math.max(length, Math.ceil((buffer?.length ?? 0) * 1.25)));
      this.kept.set(name, buffer);
    }
    return (buffer as T).subarray(0, length) as T;
  }
}

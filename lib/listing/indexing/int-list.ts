/**
 * A growable list of integers that ends as one typed array (no boxed numbers on the heap): 32-bit,
 * or 16-bit with `narrow` (values below 65,536).
 */
export class IntList<T extends Int32Array | Uint16Array = Int32Array> {
  private data: T;
  length = 0;

  constructor(capacity = 1024, narrow = false) {
    this.data = (narrow ? new Uint16Array(capacity) : new Int32Array(capacity)) as T;
  }

  /** A 32-bit list holding `values` (to widen a 16-bit one). */
  static from(values: Int32Array | Uint16Array): IntList<Int32Array> {
    const list = new IntList(Math.max(1024, values.length * 2));
    list.append(values, 0, values.length);
    return list;
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = (this.data instanceof Uint16Array ? new Uint16Array(this.data.length * 2) : new Int32Array(this.data.length * 2)) as T;
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /**
   * The backing array with room for `extra` more values after `length`: the caller writes them
   * and then sets `length` (valid until the next call that may grow the list).
   */
  reserve(extra: number): T {
    if (this.length + extra > this.data.length) {
      let size = this.data.length * 2;
      while (size < this.length + extra) size *= 2;
      const grown = (this.data instanceof Uint16Array ? new Uint16Array(size) : new Int32Array(size)) as T;
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    return this.data;
  }

  /** Appends values[from..to) at once. */
  append(values: Int32Array | Uint16Array, from: number, to: number): void {
    const length = this.length + to - from;
    if (length > this.data.length) {
      let size = this.data.length * 2;
      while (size < length) size *= 2;
      const grown = (this.data instanceof Uint16Array ? new Uint16Array(size) : new Int32Array(size)) as T;
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(values.subarray(from, to), this.length);
    this.length = length;
  }

  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }

  /** The values without a copy (valid until the next push). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

/** The same for doubles. */
export class FloatList {
  private data: Float64Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** Makes room for `extra` more values, so pushing them grows nothing. */
  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const grown = new Float64Array(this.length + extra);
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }

  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

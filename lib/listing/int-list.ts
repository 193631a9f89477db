/** A growable list of 32-bit integers that ends as one typed array (no boxed numbers on the heap). */
export class IntList {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }

  /** The values without a copy (valid until the next push). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
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

  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

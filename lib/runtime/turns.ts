/** Lets the event loop run what is waiting (I/O callbacks, timers) before going on. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Says when a long piece of synchronous work has had its turn: `due()` is true once `ms` have
 * passed since the turn began (checked every `every` calls, so a call costs a counter), and
 * starts the next turn. Work that takes many milliseconds (applying an import) then gives the
 * event loop a turn often enough that requests in the same process are not held up behind it.
 */
export class TimeSlice {
  private calls = 0;
  private started = performance.now();

  constructor(
    private readonly ms = 2,
    private readonly every = 16,
  ) {}

  due(): boolean {
    if (++this.calls % this.every !== 0) return false;
    const now = performance.now();
    if (now - this.started < this.ms) return false;
    this.started = now;
    return true;
  }
}

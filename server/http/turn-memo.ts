/** A value being made, and once made, the value itself: callers that find it settled use it at once. */
export interface Shared<T> {
  promise: Promise<T>;
  settled: boolean;
  /** Set once `promise` has resolved. */
  value: T | undefined;
}

/**
 * Values shared by everything that runs in one turn of the event loop: the first caller with a
 * key makes its value, the others of the same turn get that one, and the next turn starts over.
 * The requests read in one turn arrived together, so they may share what is worked out for each
 * of them alike; no value outlives its turn, so none is older than the turn itself.
 */
export class TurnMemo<T> {
  private readonly entries = new Map<string, Shared<T>>();
  private clearing = false;

  get(key: string, make: () => Promise<T>): Shared<T> {
    const entry = this.entries.get(key);
    if (entry) return entry;
    const made: Shared<T> = { promise: make(), settled: false, value: undefined };
    made.promise.then(
      (value) => {
        made.settled = true;
        made.value = value;
      },
      () => {
        if (this.entries.get(key) === made) this.entries.delete(key);
      },
    );
    this.entries.set(key, made);
    if (!this.clearing) {
      this.clearing = true;
      setImmediate(() => {
        this.entries.clear();
        this.clearing = false;
      });
    }
    return made;
  }
}

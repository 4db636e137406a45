/** A backend call failed; the message says how, in one line, and never holds the key. */
export class BackendCallError extends Error {
  override name = 'BackendCallError';
  /**
   * The HTTP status to report for it to the caches in front: what the backend answered, or
   * 502 when what it answered was unusable. Unset when no answer came.
   */
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

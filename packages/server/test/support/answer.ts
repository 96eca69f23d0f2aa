/** An HTTP answer as a test sees it. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as received (gunzipped when the answer was gzip-encoded). */
  readonly text: string;
  /** The raw bytes as received on the wire. */
  readonly raw: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
  header(name: string): string | undefined;
}

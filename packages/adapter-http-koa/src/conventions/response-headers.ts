// The answer's header lines, in the order they were first set, written in one writeHead call
// (pipeline/write.ts). Kept here rather than set one by one on Node's response through Koa:
// each of those calls goes through Koa's delegation and Node's per-header bookkeeping, about
// a tenth of the CPU time of a small cached answer in the anchor benchmark's profile. The
// semantics are Node's: names are case-insensitive, setting a name again replaces its value
// where it stands, and appending adds a line next to the name's others.

export class ResponseHeaders {
  /** name, value, name, value, ... as written */
  private readonly lines: string[] = [];
  private readonly lowerNames: string[] = [];

  private indexOf(lower: string): number {
    return this.lowerNames.indexOf(lower);
  }

  set(name: string, value: string): void {
    const lower = name.toLowerCase();
    const at = this.indexOf(lower);
    if (at < 0) {
      this.lines.push(name, value);
      this.lowerNames.push(lower);
      return;
    }
    // As Node's setHeader: the name as last spelled, the place as first set.
    this.lines[2 * at] = name;
    this.lines[2 * at + 1] = value;
    // Earlier lines appended under this name go: the name now has this one value.
    for (let i = this.lowerNames.length - 1; i > at; i--) if (this.lowerNames[i] === lower) this.removeAt(i);
  }

  /** Another line for this name, after the ones it has. */
  append(name: string, value: string): void {
    const lower = name.toLowerCase();
    const last = this.lowerNames.lastIndexOf(lower);
    if (last < 0) {
      this.set(name, value);
      return;
    }
    this.lines.splice(2 * (last + 1), 0, name, value);
    this.lowerNames.splice(last + 1, 0, lower);
  }

  /** The value of a name (its lines joined by ", "), undefined when it has none. */
  get(name: string): string | undefined {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (let i = 0; i < this.lowerNames.length; i++)
      if (this.lowerNames[i] === lower) values.push(this.lines[2 * i + 1] ?? '');
    return values.length === 0 ? undefined : values.join(', ');
  }

  remove(name: string): void {
    const lower = name.toLowerCase();
    for (let i = this.lowerNames.length - 1; i >= 0; i--) if (this.lowerNames[i] === lower) this.removeAt(i);
  }

  private removeAt(i: number): void {
    this.lines.splice(2 * i, 2);
    this.lowerNames.splice(i, 1);
  }

  /** The lines as Node's writeHead takes them: [name, value, name, value, ...]. */
  toArray(): readonly string[] {
    return this.lines;
  }
}

/**
 * Puts headers on the answer. Link is appended rather than set: links come from more than
 * one place (a deprecated route's link, a list's page links; RFC 8288 lets them stand side
 * by side), and setting it would drop those already there.
 */
export const setHeaders = (to: ResponseHeaders, headers: Readonly<Record<string, string>>): void => {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'Link') to.append(name, value);
    else to.set(name, value);
  }
};

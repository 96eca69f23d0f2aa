// A large JSON request body, read only as far as the body codecs look (contract §11).
//
// JSON.parse builds every value of a body: 350,000 empty objects in a list, or an object of
// 120,000 unknown keys, cost 30-60 ms to build and as much again to walk. The codecs of this
// API look at less: the top-level object's fields, and of a field that is a list, its length
// and its items when they are strings or numbers (a list longer than its bound is refused by
// its length unread). So a body whose scan counted many values (json-scan.ts, which also
// validated it) is built thinned, giving every codec the answer the whole value would give:
//
// - of the top-level object, every field the operation takes (`keys`), and the first
//   `keptUnknown` others (each an error; the rest are only counted: `dropped`);
// - a field's array longer than `maxListItems` (more than any list of the API takes) becomes
//   an empty array of the same length (a codec refuses it by that length, reading no item);
//   a shorter one keeps its strings, numbers, booleans and nulls;
// - any array or object below that (an item that is itself a list or an object) becomes an
//   empty one of the same kind: every codec refuses it by its kind alone ("must be a string"),
//   as it would the whole value;
// - a field whose value is an object (a ticket's `custom_fields`, contract §10: its members are
//   decoded by the use case against the field definitions) is built whole when it holds at
//   most `maxObjectValues` values, as JSON.parse builds it. A larger one keeps its first
//   `keptMembers` members, each read as a field is (plain values; a list longer than
//   `maxMemberListItems` as its length alone; containers below as empty ones), which the use
//   case refuses as it would the whole: by a list's length, a value's kind. With more members
//   than that it becomes an object of as many (numbered) members, refused by that count.
//
// A codec that reads deeper must be taught here; the property test in
// test/decode/json-thin.test.ts holds thinned and whole decoding equal for every body codec.

/** Longer than any list a request body takes (the largest today: 100 group ids). */
export const maxListItems = 1000;
/** Unknown top-level names kept for their errors: a 422 lists at most 100 (contract §11). */
export const keptUnknown = 100;
/** An object-valued field of at most this many values is built whole (a few hundred microseconds). */
export const maxObjectValues = 10_000;
/** Members of a larger one read (more than the 100 fields one may define); past that, only counted. */
export const keptMembers = 200;
/** In a larger one, a member's list longer than this (more than a multiselect takes) is kept as its length. */
export const maxMemberListItems = 100;

export interface Thinned {
  readonly value: unknown;
  /** Top-level names left out, none of them a field the operation takes. */
  readonly dropped: number;
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A body too large to build whole, validated; read with `thinned`. */
export class LargeJsonBody {
  constructor(readonly text: string) {}

  /** The body as the codec of an operation taking `keys` sees it. */
  thinned(keys: ReadonlySet<string>): Thinned {
    return new Reader(this.text).top(keys);
  }
}

/** Reads text that is known to be valid JSON. */
class Reader {
  private i = 0;
  constructor(private readonly text: string) {}

  private ws(): void {
    while (this.i < this.text.length && isWs(this.text.charCodeAt(this.i))) this.i += 1;
  }

  private at(): number {
    return this.text.charCodeAt(this.i);
  }

  /** Past the string whose opening quote is at i; whether it had an escape. */
  private skipString(): boolean {
    const { text } = this;
    let escaped = false;
    let j = this.i + 1;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        j += 2;
      } else j += 1;
    }
    this.i = j + 1;
    return escaped;
  }

  private string(): string {
    const start = this.i;
    const escaped = this.skipString();
    return escaped ? (JSON.parse(this.text.slice(start, this.i)) as string) : this.text.slice(start + 1, this.i - 1);
  }

  /** Past any value, without building it. */
  private skip(): void {
    const { text } = this;
    const c = this.at();
    if (c === 0x22) {
      this.skipString();
      return;
    }
    if (c !== 0x7b && c !== 0x5b) {
      while (this.i < text.length) {
        const d = text.charCodeAt(this.i);
        if (d === 0x2c || d === 0x5d || d === 0x7d || isWs(d)) break;
        this.i += 1;
      }
      return;
    }
    let depth = 0;
    do {
      const d = text.charCodeAt(this.i);
      if (d === 0x22) {
        this.skipString();
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth += 1;
      else if (d === 0x7d || d === 0x5d) depth -= 1;
      this.i += 1;
    } while (depth > 0);
  }

  /** A string, number, boolean or null, built; an array or object: an empty one of its kind. */
  private shallow(): unknown {
    const c = this.at();
    if (c === 0x22) return this.string();
    const start = this.i;
    this.skip();
    if (c === 0x7b) return {};
    if (c === 0x5b) return [];
    return JSON.parse(this.text.slice(start, this.i)) as unknown;
  }

  /**
   * Whether the object or array at i holds at most `limit` values (strings, names too, numbers,
   * literals and containers): if so, i is then past it; if not, i is left inside it.
   */
  private holdsAtMost(limit: number): boolean {
    const { text } = this;
    let depth = 0;
    let n = 0;
    do {
      if (n > limit) return false;
      const d = text.charCodeAt(this.i);
      if (d === 0x22) {
        this.skipString();
        n += 1;
        continue;
      }
      if (d === 0x7b || d === 0x5b) {
        depth += 1;
        n += 1;
      } else if (d === 0x7d || d === 0x5d) depth -= 1;
      else if (d === 0x2d || (d >= 0x30 && d <= 0x39) || d === 0x74 || d === 0x66 || d === 0x6e) {
        this.skip();
        n += 1;
        continue;
      }
      this.i += 1;
    } while (depth > 0);
    return true;
  }

  /** A field's value that is an object; see the module's comment. */
  private objectField(): unknown {
    const start = this.i;
    if (this.holdsAtMost(maxObjectValues)) return JSON.parse(this.text.slice(start, this.i)) as unknown;
    this.i = start + 1;
    const members: Record<string, unknown> = {};
    let count = 0;
    for (;;) {
      this.ws();
      if (count < keptMembers) {
        const name = this.string();
        this.ws();
        this.i += 1; // :
        this.ws();
        members[name] = this.field(maxMemberListItems);
      } else {
        this.skipString();
        this.ws();
        this.i += 1; // :
        this.ws();
        this.skip();
      }
      count += 1;
      this.ws();
      const c = this.at();
      this.i += 1;
      if (c === 0x7d) break;
    }
    if (count <= keptMembers) return members;
    const numbered: Record<number, null> = {};
    for (let k = 0; k < count; k++) numbered[k] = null;
    return numbered;
  }

  /** A field's value: a list keeps its plain items (or only its length when too long); see the module's comment. */
  private field(maxItems = maxListItems, top = false): unknown {
    if (top && this.at() === 0x7b) return this.objectField();
    if (this.at() !== 0x5b) return this.shallow();
    this.i += 1;
    const items: unknown[] = [];
    let count = 0;
    this.ws();
    if (this.at() === 0x5d) {
      this.i += 1;
      return items;
    }
    for (;;) {
      this.ws();
      if (count < maxItems) items.push(this.shallow());
      else this.skip();
      count += 1;
      this.ws();
      const c = this.at();
      this.i += 1;
      if (c === 0x5d) break;
    }
    return count > maxItems ? new Array<unknown>(count) : items;
  }

  top(keys: ReadonlySet<string>): Thinned {
    this.ws();
    const c = this.at();
    // Every body codec refuses anything but an object by its kind; a plain value is cheap whole.
    if (c !== 0x7b) return { value: c === 0x5b ? [] : JSON.parse(this.text), dropped: 0 };
    this.i += 1;
    const value: Record<string, unknown> = {};
    let unknown = 0;
    let dropped = 0;
    this.ws();
    if (this.at() === 0x7d) return { value, dropped };
    const fields = [...keys];
    for (;;) {
      this.ws();
      const start = this.i;
      const escaped = this.skipString();
      const end = this.i;
      const decoded = escaped ? (JSON.parse(this.text.slice(start, end)) as string) : null;
      // A field is found without cutting the name out of the text: 120,000 names cost no allocation.
      const field =
        decoded === null
          ? fields.find((f) => f.length === end - start - 2 && this.text.startsWith(f, start + 1))
          : fields.find((f) => f === decoded);
      this.ws();
      this.i += 1; // :
      this.ws();
      if (field !== undefined) value[field] = this.field(maxListItems, true);
      else if (unknown < keptUnknown) {
        unknown += 1;
        value[decoded ?? this.text.slice(start + 1, end - 1)] = this.shallow();
      } else {
        dropped += 1;
        this.skip();
      }
      this.ws();
      const next = this.at();
      this.i += 1;
      if (next === 0x7d) break;
    }
    return { value, dropped };
  }
}

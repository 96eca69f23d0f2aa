// Range requests on an attachment's bytes (RFC 9110 §14): one range is served (206); a header
// this server does not serve as ranges (several ranges, another unit, a malformed one) is
// ignored and the whole is sent (200), as the RFC allows; a single range that starts past the
// end is unsatisfiable (416). If-Range with another entity tag asks for the whole.

export type RangeAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'part'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

const whole: RangeAnswer = { kind: 'whole' };

export const rangeOf = (header: string, ifRange: string, etag: string, size: number): RangeAnswer => {
  if (header === '' || (ifRange !== '' && ifRange !== etag)) return whole;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (m === null) return whole;
  const [first, last] = [m[1] ?? '', m[2] ?? ''];
  if (first === '' && last === '') return whole;
  if (first === '') {
    // The last n bytes.
    const n = Number(last);
    if (n === 0) return { kind: 'unsatisfiable' };
    return size === 0 ? { kind: 'unsatisfiable' } : { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return whole;
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
};

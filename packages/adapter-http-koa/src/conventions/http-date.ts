// HTTP dates (RFC 9110 §5.6.7). We send IMF-fixdate (the RFC 1123 form); we accept all
// three forms a client may send in If-Modified-Since:
//   Sun, 06 Nov 1994 08:49:37 GMT    IMF-fixdate (RFC 1123)
//   Sunday, 06-Nov-94 08:49:37 GMT   obsolete RFC 850 form
//   Sun Nov  6 08:49:37 1994         ANSI C asctime() form (always UTC)

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayName = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const longDayName = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const month = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const time = '(\\d{2}):(\\d{2}):(\\d{2})';

const imfFixdate = new RegExp(`^${dayName}, (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
const rfc850 = new RegExp(`^${longDayName}, (\\d{2})-${month}-(\\d{2}) ${time} GMT$`);
const asctime = new RegExp(`^${dayName} ${month} ([ \\d]\\d) ${time} (\\d{4})$`);

const utc = (year: number, mon: string, day: number, h: string, m: string, s: string): number | null => {
  const hours = Number(h);
  const minutes = Number(m);
  const seconds = Number(s);
  if (day < 1 || day > 31 || hours > 23 || minutes > 59 || seconds > 60) return null;
  const ms = Date.UTC(year, months.indexOf(mon), day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls 31 Feb over into March: such a date does not exist.
  return new Date(ms).getUTCDate() === day ? ms : null;
};

/**
 * A two-digit RFC 850 year: the most recent year with those digits that is not more than
 * 50 years in the future (RFC 9110 §5.6.7).
 */
const fullYear = (yy: number, now: number): number => {
  const current = new Date(now).getUTCFullYear();
  let year = Math.floor(current / 100) * 100 + yy;
  if (year > current + 50) year -= 100;
  return year;
};

/** Epoch ms of an HTTP date in any of the three forms; null when it is none of them. */
export const parseHttpDate = (value: string, now: number = Date.now()): number | null => {
  const v = value.trim();
  let m = imfFixdate.exec(v);
  if (m !== null) return utc(Number(m[3]), m[2] ?? '', Number(m[1]), m[4] ?? '', m[5] ?? '', m[6] ?? '');
  m = rfc850.exec(v);
  if (m !== null) return utc(fullYear(Number(m[3]), now), m[2] ?? '', Number(m[1]), m[4] ?? '', m[5] ?? '', m[6] ?? '');
  m = asctime.exec(v);
  if (m !== null) return utc(Number(m[6]), m[1] ?? '', Number((m[2] ?? '').trim()), m[3] ?? '', m[4] ?? '', m[5] ?? '');
  return null;
};

/** IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT". */
export const formatHttpDate = (ms: number): string => new Date(ms).toUTCString();

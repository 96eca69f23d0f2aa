// Content-Disposition (RFC 6266): the filename a request names its body by, and the header an
// attachment's bytes are answered with. filename* (RFC 8187: charset'language'percent-encoded)
// wins over filename, as the RFC asks.

/** The value of `name` among the header's parameters, unquoted; undefined when absent. */
const parameter = (header: string, name: string): string | undefined => {
  const re = new RegExp(`;\\s*${name.replace('*', '\\*')}\\s*=\\s*("((?:[^"\\\\]|\\\\.)*)"|[^;\\s]*)`, 'i');
  const m = re.exec(header);
  if (m === null) return undefined;
  return m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[1];
};

/** RFC 8187 ext-value: UTF-8'' (or ISO-8859-1'') and percent-escapes. */
const extValue = (value: string): string | undefined => {
  const m = /^(utf-8|iso-8859-1)'[^']*'(.*)$/i.exec(value);
  if (m === null) return undefined;
  const bytes = Buffer.from(
    (m[2] ?? '').replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  );
  if ((m[1] ?? '').toLowerCase() === 'iso-8859-1') return bytes.toString('latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
};

/** The filename a request's Content-Disposition gives; undefined when it gives none. */
export const dispositionFilename = (header: string): string | undefined => {
  if (header === '') return undefined;
  const extended = parameter(header, 'filename*');
  const decoded = extended === undefined ? undefined : extValue(extended);
  return decoded ?? parameter(header, 'filename');
};

/** RFC 5987 attr-char: what may stand unescaped in filename*. */
const encodeExt = (s: string): string =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The header of an attachment's bytes: an ASCII fallback name and the exact one as filename*. */
export const contentDisposition = (inline: boolean, filename: string): string => {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeExt(filename)}`;
};

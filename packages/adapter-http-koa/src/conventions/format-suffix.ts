import { problem } from '../errors/http-problem.js';

// A media-type suffix on a resource URL: `.json` is the format we serve anyway and is
// dropped before routing (/v1/tickets/7.json is /v1/tickets/7); `.xml` is not offered: 406.

const suffix = /\.(json|xml)$/i;

/** The path to route; throws 406 for `.xml`. */
export const withoutFormatSuffix = (path: string): string => {
  const m = suffix.exec(path);
  if (m === null) return path;
  if (m[1]?.toLowerCase() === 'xml') {
    throw problem('notAcceptable', 'XML is not offered; this API serves JSON only (drop the suffix or use .json)');
  }
  return path.slice(0, -m[0].length);
};

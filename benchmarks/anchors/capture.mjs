// The exact answers of the service, taken before any load, for the anchors to replay: status,
// headers and body of the plain answer, the headers of the gzip answer (its body is the plain
// body gzipped) and the headers of the 304. Headers the server itself writes per connection or
// per body (length, encoding, date, keep-alive) are left to each server.
const perConnection = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
]);

const replayable = (headers) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !perConnection.has(name)));

/** Answers `{ routes: [...] }`, the file the anchors load (bodies in base64). */
export const captureAnswers = async (http, token, routes) => {
  const auth = { authorization: `Bearer ${token}` };
  const captured = [];
  for (const { method, path, body } of Object.values(routes)) {
    const plain = await http.send({ method, path, body, headers: auth });
    if (plain.status >= 400)
      throw new Error(`capturing ${method} ${path}: ${plain.status} ${plain.text.slice(0, 300)}`);
    const entry = {
      method,
      path,
      status: plain.status,
      headers: replayable(plain.headers),
      body: plain.bytes.toString('base64'),
      gzip: null,
      notModified: null,
    };
    if (method === 'GET') {
      const gz = await http.send({ method, path, headers: { ...auth, 'accept-encoding': 'gzip' } });
      if (gz.headers['content-encoding'] !== 'gzip' || !gz.plain.equals(plain.bytes)) {
        throw new Error(`capturing ${path}: the gzip answer is not the plain answer gzipped`);
      }
      entry.gzip = { headers: replayable(gz.headers), bytes: gz.bytes.length };
      const etag = plain.headers.etag;
      if (etag !== undefined) {
        const nm = await http.send({
          method,
          path,
          headers: { ...auth, 'accept-encoding': 'gzip', 'if-none-match': etag },
        });
        if (nm.status !== 304) throw new Error(`capturing ${path} with If-None-Match: expected 304, got ${nm.status}`);
        entry.notModified = { etag, headers: replayable(nm.headers) };
      }
    }
    captured.push(entry);
  }
  return { routes: captured };
};

// Before a server is loaded with an endpoint, one request checks that it answers what was
// captured: the anchors the same bytes (once gunzipped) and ETag, the service the same too
// (a POST makes a new ticket, so only its status is checked there).
export const checkAnswer = async (http, endpoint, captured, { exact }) => {
  const { method, path, body } = endpoint.route;
  const a = await http.send({ method, path, body, headers: endpoint.headers });
  const problems = [];
  if (a.status !== endpoint.expect) problems.push(`status ${a.status}, expected ${endpoint.expect}`);
  const gzipped = endpoint.headers['accept-encoding'] === 'gzip' && a.status === 200;
  if (gzipped && a.headers['content-encoding'] !== 'gzip') problems.push('not gzipped');
  if (!gzipped && a.headers['content-encoding'] !== undefined)
    problems.push(`content-encoding ${a.headers['content-encoding']}`);
  if (a.headers.etag !== captured.headers.etag && (method === 'GET' || exact))
    problems.push(`etag ${a.headers.etag}, captured ${captured.headers.etag}`);
  if (a.status !== 304 && (method === 'GET' || exact) && !a.plain.equals(captured.body))
    problems.push('body differs from the captured one');
  return problems;
};

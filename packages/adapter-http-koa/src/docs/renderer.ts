import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipAsync } from 'node:zlib';
import type { RawBody } from '../reply.js';

// GET /docs: a human page rendered from GET /v1/openapi.json by Swagger UI, entirely from
// this service. The renderer's standalone bundle comes from the swagger-ui-dist package
// and is served under /docs/assets/ (a fixed list of files, never a path from the
// request); the page and its initializer are ours. Nothing is fetched from another
// origin, and the page's Content-Security-Policy forbids it: fonts are the system's,
// images in the stylesheet are data: URLs, the validator badge (validator.swagger.io)
// is switched off, and the initializer is a file (no inline script).

const gzip = promisify(gzipAsync);

/** The directory of the installed swagger-ui-dist package. */
const rendererDirectory = (): string => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The renderer files the page uses, by the name they are served under. */
const rendererFiles: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Where the page lives, and where its assets live, below the public URL's path. */
export const docsPath = '/docs';
export const docsAssetsPath = `${docsPath}/assets/`;
export const isDocsPath = (path: string): boolean => path === docsPath || path.startsWith(`${docsPath}/`);
export const initializerName = 'docs-init.js';

const etagOfBytes = (bytes: Buffer): string => `"${createHash('sha1').update(bytes).digest('base64url')}"`;

/** A body served as is, with its gzip made once (the bundle is large and never changes). */
const rawBody = (contentType: string, bytes: Buffer): RawBody => {
  const etag = etagOfBytes(bytes);
  // Images are compressed already.
  if (contentType.startsWith('image/')) return { contentType, bytes, etag };
  let zipped: Promise<Buffer> | null = null;
  return { contentType, bytes, etag, gzipped: () => (zipped ??= gzip(bytes)) };
};

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The page: Swagger UI's stylesheet and bundle, then our initializer. */
const pageHtml = (base: string): string => {
  const asset = (name: string): string => escapeHtml(`${base}${docsAssetsPath}${name}`);
  const spec = escapeHtml(`${base}/v1/openapi.json`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Support ticket API: documentation</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<noscript><p>This page renders the API's OpenAPI document, <a href="${spec}">${spec}</a>, and needs JavaScript. The document itself is plain JSON.</p></noscript>
<div id="swagger-ui" data-spec-url="${spec}"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset(initializerName)}"></script>
</body>
</html>
`;
};

/**
 * Starts Swagger UI on the document named by the page (no inline script, so the CSP can forbid
 * them). "Try it out" starts every optional parameter empty: Swagger UI would fill each from
 * its example or its schema's default (callback=app.on_tickets, page=2, q=printer fire,
 * envelope=false...), so a first try would answer a JSONP script of an empty page. An empty
 * optional parameter is not sent, and the server applies its own default; the examples stay
 * in the document (shown next to each parameter). Required ones (path ids) keep their example.
 */
const initializerJs = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var EmptyOptionalParameters = function () {
    return {
      statePlugins: {
        spec: {
          wrapSelectors: {
            parameterWithMetaByIdentity: function (original) {
              return function (state, pathMethod, param) {
                var p = original(pathMethod, param);
                if (!p || typeof p.get !== 'function' || p.get('required') === true || p.get('in') === 'body' || p.get('value') !== undefined) return p;
                var items = p.getIn(['schema', 'items', 'enum']);
                return p.set('value', p.getIn(['schema', 'type']) === 'array' && items && typeof items.clear === 'function' ? items.clear() : '');
              };
            }
          }
        }
      }
    };
  };
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [EmptyOptionalParameters],
    layout: 'BaseLayout',
    deepLinking: true,
    // Never ask validator.swagger.io (another origin) to validate the document.
    validatorUrl: null,
    // The document shown is ours only: ?url= / ?configUrl= in the page address are ignored.
    queryConfigEnabled: false,
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    defaultModelExpandDepth: 2,
    displayOperationId: false,
    displayRequestDuration: true,
    showCommonExtensions: true,
    requestSnippetsEnabled: true,
    tryItOutEnabled: false,
    persistAuthorization: false
  });
})();
`;

/**
 * The page's Content-Security-Policy: everything from this origin (and the public origin,
 * where "Try it out" sends requests), nothing from anywhere else.
 */
export const docsSecurityHeaders = (publicOrigin: string): Readonly<Record<string, string>> => ({
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${publicOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

export interface DocsRenderer {
  /** The HTML page. */
  readonly page: RawBody;
  /** An asset by the name it is served under; null for any other name. */
  asset(name: string): Promise<RawBody | null>;
}

/** The documentation page and its assets, for a service whose public URL is `publicUrl`. */
export const docsRenderer = (publicUrl: string): DocsRenderer => {
  const directory = rendererDirectory();
  const base = new URL(publicUrl).pathname.replace(/\/+$/, '');
  const page = rawBody('text/html; charset=utf-8', Buffer.from(pageHtml(base)));
  const initializer = rawBody('text/javascript; charset=utf-8', Buffer.from(initializerJs));
  const loaded = new Map<string, Promise<RawBody>>();
  return {
    page,
    asset: async (name) => {
      if (name === initializerName) return initializer;
      if (!Object.hasOwn(rendererFiles, name)) return null;
      const contentType = rendererFiles[name] ?? 'application/octet-stream';
      let body = loaded.get(name);
      if (body === undefined) {
        body = readFile(join(directory, name)).then((bytes) => rawBody(contentType, bytes));
        loaded.set(name, body);
        // A failed read is not remembered: the next request tries again.
        void body.catch(() => loaded.delete(name));
      }
      return body;
    },
  };
};

import { apiVersions } from '../conventions/api-version.js';
import { defaultDeprecations } from '../conventions/deprecation.js';
import { createRouter, servicesWithoutApp } from '../routes/router.js';
import { buildDocument, type DocumentOptions } from './document.js';
import type { Json } from './json.js';

// The document a server with these options serves: its routes are registered (with no
// application behind them: no handler runs) and their declarations read.

export const openApiDocument = (o: DocumentOptions): Json => {
  const services = servicesWithoutApp(o);
  createRouter(services);
  return buildDocument(o, services.operations.operations);
};

/** The document with the default settings (https://localhost:8443): what the tests check answers against. */
export const defaultOpenApiDocument = (publicUrl = 'https://localhost:8443'): Json =>
  openApiDocument({ publicUrl, versions: apiVersions, deprecations: defaultDeprecations });

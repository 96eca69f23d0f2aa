import 'reflect-metadata';
import { createApplication, type Application, type Clock, type PasswordHasher, type Ports, type Store, type TokenGenerator } from '@support/application';
import { createMemoryStore } from '@support/adapter-memory';
import { createMongoStore } from '@support/adapter-mongo';
import { Container } from 'inversify';
import type { Config } from './config.js';
import { argon2Hasher } from './passwords.js';
import { cryptoTokens, systemClock } from './secrets.js';

/** A store the server can close at shutdown. */
export type ServerStore = Store & { readonly close?: () => Promise<void>; readonly start?: () => Promise<{ readonly warnings: readonly string[] }> };

export const TYPES = {
  Config: Symbol.for('Config'),
  Store: Symbol.for('Store'),
  Clock: Symbol.for('Clock'),
  PasswordHasher: Symbol.for('PasswordHasher'),
  TokenGenerator: Symbol.for('TokenGenerator'),
  Ports: Symbol.for('Ports'),
  Application: Symbol.for('Application'),
} as const;

/** Replacements for tests: a controllable clock, a cheaper hasher, a prepared store. */
export interface Overrides {
  readonly clock?: Clock;
  readonly passwords?: PasswordHasher;
  readonly store?: ServerStore;
}

const storeFor = (config: Config): ServerStore => {
  if (config.store === 'mongo') {
    return createMongoStore({
      url: config.mongoUrl ?? '',
      ...(config.mongoServerSelectionTimeoutMs === null ? {} : { serverSelectionTimeoutMS: config.mongoServerSelectionTimeoutMs }),
      ...(config.mongoOperationTimeoutMs === null ? {} : { operationTimeoutMS: config.mongoOperationTimeoutMs }),
      allowStandalone: config.mongoAllowStandalone,
    });
  }
  return createMemoryStore();
};

/** The one place where ports meet adapters: STORE picks the store adapter. */
export const buildContainer = (config: Config, overrides: Overrides = {}): Container => {
  const c = new Container();
  c.bind<Config>(TYPES.Config).toConstantValue(config);
  c.bind<ServerStore>(TYPES.Store).toDynamicValue(() => overrides.store ?? storeFor(config)).inSingletonScope();
  c.bind<Clock>(TYPES.Clock).toConstantValue(overrides.clock ?? systemClock);
  c.bind<PasswordHasher>(TYPES.PasswordHasher).toDynamicValue(() => overrides.passwords ?? argon2Hasher()).inSingletonScope();
  c.bind<TokenGenerator>(TYPES.TokenGenerator).toConstantValue(cryptoTokens);
  c.bind<Ports>(TYPES.Ports)
    .toDynamicValue((ctx) => ({
      ...ctx.get<ServerStore>(TYPES.Store),
      clock: ctx.get<Clock>(TYPES.Clock),
      passwords: ctx.get<PasswordHasher>(TYPES.PasswordHasher),
      secrets: ctx.get<TokenGenerator>(TYPES.TokenGenerator),
    }))
    .inSingletonScope();
  c.bind<Application>(TYPES.Application)
    .toDynamicValue((ctx) =>
      createApplication(ctx.get<Ports>(TYPES.Ports), {
        auth: { accessTokenTtlSeconds: config.tokenTtlSeconds, refreshTokenTtlSeconds: 30 * 86_400 },
        rateLimit: { limit: config.rateLimit, windowSeconds: config.rateLimitWindowSeconds },
      }),
    )
    .inSingletonScope();
  return c;
};

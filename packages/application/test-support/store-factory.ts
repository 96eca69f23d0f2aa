import type { Store } from '../src/index.js';

/** A store under test. When it has `close`, the suites call it once a test is over with it. */
export type ContractStore = Store & { readonly close?: () => Promise<void> };

/**
 * Makes a fresh, empty store (synchronously or not). Every contract suite calls it once per
 * test, and for the property tests once per test as well (they keep their runs apart by ids).
 */
export type MakeStore = () => ContractStore | Promise<ContractStore>;

/**
 * Gives every test of the enclosing `describe` a fresh store from `makeStore` and closes it
 * after the test. Answers the current test's store.
 */
export const freshStorePerTest = (makeStore: MakeStore): (() => Store) => {
  let current: ContractStore | null = null;
  beforeEach(async () => {
    current = await makeStore();
  });
  afterEach(async () => {
    const done = current;
    current = null;
    await done?.close?.();
  });
  return () => {
    if (current === null) throw new Error('the store exists only while a test runs');
    return current;
  };
};

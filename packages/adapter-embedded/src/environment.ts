import type { Database, RootDatabase } from 'lmdb';
import { openEnvironment, tableOptions } from './data-dir.js';

/** The open LMDB environment of a data directory and its tables, the one place every reader and the writer find them. */
export class LmdbEnvironment {
  private current: { readonly env: RootDatabase; readonly tables: ReadonlyMap<string, Database> } | null;

  constructor(
    private readonly dir: string,
    names: readonly string[],
  ) {
    const env = openEnvironment(dir);
    try {
      this.current = { env, tables: new Map(names.map((name) => [name, env.openDB({ name, ...tableOptions })])) };
    } catch (e) {
      void env.close();
      throw e;
    }
  }

  private get opened(): { readonly env: RootDatabase; readonly tables: ReadonlyMap<string, Database> } {
    if (this.current === null) throw new Error(`the store in ${this.dir} is closed`);
    return this.current;
  }

  get env(): RootDatabase {
    return this.opened.env;
  }

  /** A table of the store; only the names given at construction. */
  table(name: string): Database {
    const db = this.opened.tables.get(name);
    if (db === undefined) throw new Error(`no table ${name} in the embedded store`);
    return db;
  }

  async close(): Promise<void> {
    const was = this.current;
    this.current = null;
    if (was !== null) await was.env.close();
  }
}

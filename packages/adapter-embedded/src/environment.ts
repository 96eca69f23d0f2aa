import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import { DataDirError, dataFiles, openEnvironment, tableOptions } from './data-dir.js';

/**
 * The open LMDB environment of a data directory and its tables, the one place every reader
 * and the writer find them. It can be closed and opened again while the store runs
 * (map-refresh.ts): whoever holds this object reads the new handles from then on.
 */
export class LmdbEnvironment {
  private current: { readonly env: RootDatabase; readonly tables: ReadonlyMap<string, Database> } | null;
  /** The file opened first: a reopen must find the same one (memory holds what it held). */
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly names: readonly string[],
  ) {
    this.current = this.open(false);
    this.file = this.identity();
  }

  private identity(): string {
    const { dev, ino } = statSync(join(this.dir, dataFiles.store));
    return `${String(dev)}:${String(ino)}`;
  }

  private open(reopening: boolean): { readonly env: RootDatabase; readonly tables: ReadonlyMap<string, Database> } {
    const env = openEnvironment(this.dir, reopening);
    try {
      return { env, tables: new Map(this.names.map((name) => [name, env.openDB({ name, ...tableOptions })])) };
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

  /**
   * Closes the environment (LMDB unmaps the file: the pages this process touched stop
   * counting in its memory) and opens it again. The caller makes sure nothing reads or writes
   * meanwhile. When the open fails, the environment stays closed and `reopen` may be called again.
   */
  async reopen(): Promise<void> {
    const was = this.current;
    this.current = null;
    if (was !== null) await was.env.close();
    const opened = this.open(true);
    if (this.identity() !== this.file) {
      void opened.env.close();
      throw new DataDirError(
        `DATA_DIR ${this.dir}: ${dataFiles.store} was replaced while the service ran; restart the service to serve the new one`,
      );
    }
    this.current = opened;
  }

  async close(): Promise<void> {
    const was = this.current;
    this.current = null;
    if (was !== null) await was.env.close();
  }
}

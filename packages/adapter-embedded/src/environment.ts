import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import { DataDirError, dataFiles, openEnvironment, tableOptions } from './data-dir.js';

interface Handles {
  readonly env: RootDatabase;
  readonly tables: ReadonlyMap<string, Database>;
}

/**
 * The open LMDB environment of a data directory and its tables, the one place every reader
 * and the writer find them (so that `unmapAfterLoad` can swap the handles under them).
 */
export class LmdbEnvironment {
  private current: Handles | null;

  constructor(
    private readonly dir: string,
    private readonly names: readonly string[],
  ) {
    this.current = this.open();
  }

  private open(): Handles {
    const env = openEnvironment(this.dir);
    try {
      return { env, tables: new Map(this.names.map((name) => [name, env.openDB({ name, ...tableOptions })])) };
    } catch (e) {
      void env.close();
      throw e;
    }
  }

  private identity(): string {
    const { dev, ino } = statSync(join(this.dir, dataFiles.store));
    return `${String(dev)}:${String(ino)}`;
  }

  /**
   * Closes the environment and opens it again, once, after the start's load and before any
   * port call: the load read every record through LMDB's map, and those pages stay resident
   * (counted in RSS) until the map is closed. lmdb-js shares one native environment per file
   * in a process and unmaps it when its last handle closes, so close-then-open gives a fresh,
   * empty map (docs/embedded-store.md, "LMDB's mapped pages"). The caller makes sure nothing
   * reads or writes meanwhile; the file must still be the one the load read.
   */
  async unmapAfterLoad(): Promise<void> {
    const loaded = this.identity();
    await this.close();
    const opened = this.open();
    if (this.identity() !== loaded) {
      await opened.env.close();
      throw new DataDirError(
        `DATA_DIR ${this.dir}: ${dataFiles.store} was replaced while the service started; start it again`,
      );
    }
    this.current = opened;
  }

  private get opened(): Handles {
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

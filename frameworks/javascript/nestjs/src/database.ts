import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { items, positiveInteger, tfb } from './shared';

export interface World {
  id: number;
  randomNumber: number;
}

export interface ItemFields {
  name: string;
  quantity: number;
}

export interface Item extends ItemFields {
  id: number;
}

// crud's statements on the items table (../common/items.js): find, page, create, update, remove.
export interface Items {
  find(id: number): Promise<Item | null>;
  page(window: { limit: number; offset: number }): Promise<Item[]>;
  create(fields: ItemFields): Promise<Item>;
  update(id: number, fields: ItemFields): Promise<Item | null>;
  remove(id: number): Promise<boolean>;
}

const WORLD = 'SELECT id, randomnumber FROM world WHERE id = $1';

// The pg pool as a Nest provider: each process opens at most DB_POOL connections (docs/fairness.md).
@Injectable()
export class Database implements OnApplicationShutdown {
  readonly pool: Pool;
  readonly items: Items;
  private readonly cache;

  constructor() {
    const size = positiveInteger('DB_POOL');
    this.pool = new Pool({ connectionString: process.env.DATABASE_URL, min: size, max: size });
    this.items = items.pgItems(this.pool);
    this.cache = tfb.worldCache(async () => {
      const { rows } = await this.pool.query('SELECT id, randomnumber FROM world');
      return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
    });
  }

  async randomWorld(): Promise<World> {
    const { rows } = await this.pool.query({ name: 'world', text: WORLD, values: [tfb.randomId()] });
    return { id: rows[0].id, randomNumber: rows[0].randomnumber };
  }

  // One query per row, issued together: the pool runs them on its connections as they come free.
  randomWorlds(n: number): Promise<World[]> {
    const queries = new Array(n);
    for (let i = 0; i < n; i++) queries[i] = this.randomWorld();
    return Promise.all(queries);
  }

  async updateWorlds(worlds: World[]): Promise<void> {
    const batch = tfb.updateBatch(worlds);
    await this.pool.query(tfb.updateSql(batch.length), batch.flat());
  }

  async fortunes(): Promise<{ id: number; message: string }[]> {
    const { rows } = await this.pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
    return tfb.withExtraFortune(rows);
  }

  cachedWorlds(n: number): Promise<World[]> {
    return this.cache.sample(n);
  }

  onApplicationShutdown() {
    return this.pool.end();
  }
}

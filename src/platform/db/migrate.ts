// Forward-only SQL migrations (migrations/NNNN_name.sql), each applied once, in its own
// transaction, under an advisory lock so concurrent starts do not race. A failure throws:
// `mimoto migrate` then exits non-zero and the server does not start.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './open-database.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));
/** Any constant shared by every mimoto process; "mimo" in ASCII. */
const MIGRATION_LOCK_ID = 0x6d696d6f;

export interface Migration {
  id: string;
  sql: string;
}

export function readMigrations(directory = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(directory)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      id: name.replace(/\.sql$/, ''),
      sql: fs.readFileSync(path.join(directory, name), 'utf8'),
    }));
}

/** Applies the migrations not yet applied; returns their ids. */
export async function migrate(database: Database, migrations = readMigrations()): Promise<string[]> {
  const { db } = database;
  await sql`CREATE TABLE IF NOT EXISTS mimoto_migrations (
    id text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(trx);
      const existing = await sql<{
        id: string;
      }>`SELECT id FROM mimoto_migrations WHERE id = ${migration.id}`.execute(trx);
      if (existing.rows.length > 0) return false;
      await sql.raw(migration.sql).execute(trx);
      await sql`INSERT INTO mimoto_migrations (id) VALUES (${migration.id})`.execute(trx);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

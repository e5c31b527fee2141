import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { lockDataDirectory } from '../../src/platform/db/lock-data-directory.ts';
import { migrate, readMigrations } from '../../src/platform/db/migrate.ts';
import { createTestPlatform } from '../helpers/test-platform.ts';

describe('migrations', () => {
  it('apply once; a second run applies nothing', async () => {
    const platform = await createTestPlatform();
    try {
      assert.deepEqual(await migrate(platform.database), []);
      const { rows } = await platform.database.executeSql('SELECT id FROM mimoto_migrations ORDER BY id');
      assert.deepEqual(
        rows.map((r) => r.id),
        readMigrations().map((m) => m.id),
      );
    } finally {
      await platform.close();
    }
  });

  it('roll back a failing migration whole and report it', async () => {
    const platform = await createTestPlatform();
    try {
      const broken = [
        { id: '9999_broken', sql: 'CREATE TABLE half_done (x int); SELECT * FROM no_such_table;' },
      ];
      await assert.rejects(migrate(platform.database, broken), /no_such_table/);
      const { rows } = await platform.database.executeSql("SELECT to_regclass('half_done') AS t");
      assert.equal(rows[0]?.t, null, 'nothing of it remains');
    } finally {
      await platform.close();
    }
  });

  it('keep a transaction isolated from concurrent queries on the embedded database', async () => {
    const platform = await createTestPlatform();
    try {
      const { db } = platform.database;
      await sql`CREATE TABLE counter (n int)`.execute(db);
      const inside = db.transaction().execute(async (trx) => {
        await sql`INSERT INTO counter VALUES (1)`.execute(trx);
        await new Promise((r) => setTimeout(r, 50));
        throw new Error('roll back');
      });
      const outside = sql<{ n: number }>`SELECT count(*)::int AS n FROM counter`.execute(db);
      await assert.rejects(inside);
      assert.equal((await outside).rows[0]?.n, 0, 'the concurrent query did not see or join the transaction');
    } finally {
      await platform.close();
    }
  });
});

describe('embedded database lock', () => {
  it('refuses a second holder with a clear error while the first lives', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-lock-'));
    const release = lockDataDirectory(dir);
    // Another process trying the same directory:
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('./src/platform/db/lock-data-directory.ts').then(m => { try { m.lockDataDirectory(${JSON.stringify(dir)}); process.exit(0) } catch (e) { console.error(e.message); process.exit(3) } })`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(child.status, 3);
    assert.match(child.stderr, new RegExp(`in use by another mimoto process \\(pid ${process.pid}\\)`));
    release();
    const again = lockDataDirectory(dir);
    again();
    fs.rmSync(dir, { recursive: true });
  });

  it('takes over the lock of a process that died', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mimoto-lock-'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    fs.writeFileSync(path.join(dir, 'pgdata.lock'), dead.stdout);
    const release = lockDataDirectory(dir);
    assert.equal(fs.readFileSync(path.join(dir, 'pgdata.lock'), 'utf8'), String(process.pid));
    release();
    assert.ok(!fs.existsSync(path.join(dir, 'pgdata.lock')));
    fs.rmSync(dir, { recursive: true });
  });
});

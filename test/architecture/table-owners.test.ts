// One owning repository per table (ARCHITECTURE.md "Database"): the SQL of each table is written
// only in its owner's folder; other capabilities ask the owner through its index.ts. Checked on
// every query-builder call (with or without an alias, joins included) and SQL text in src/ that
// names a table.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const SRC = path.resolve('src');

/** Table → the folder (under src/) that owns it. */
const OWNERS: Record<string, string> = {
  tenants: 'tenants/',
  api_keys: 'api-keys/',
  verification_sessions: 'sessions/',
  webhook_events: 'webhooks/',
  webhook_attempts: 'webhooks/',
  session_documents: 'hosted-flow/',
  flow_handoffs: 'hosted-flow/',
  liveness_challenges: 'hosted-flow/',
  check_results: 'pipeline/',
  decisions: 'pipeline/',
  session_face_descriptors: 'pipeline/',
  session_identity_keys: 'pipeline/',
  review_claims: 'review/',
  reviews: 'review/',
  blacklist_entries: 'checks/fraud-signals/',
  console_users: 'console/',
  console_password_tokens: 'console/',
  console_sessions: 'console/',
  audit_log: 'actors/',
};

/** `file -> table` allowed outside the owner, each with why. An entry nothing matches fails the test. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  [
    'sessions/retention-repository.ts -> tenants',
    "the retention sweep picks every tenant's expired sessions in one set-based statement, joining each tenant's retention days",
  ],
  [
    'sessions/retention-repository.ts -> decisions',
    "the same statement dates each session's end by its last decision",
  ],
  [
    'sessions/retention-repository.ts -> webhook_events',
    'the same statement keeps a session while one of its events is still pending',
  ],
]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

function tableUses(): { file: string; table: string }[] {
  const names = Object.keys(OWNERS).join('|');
  const builder = new RegExp(
    `\\b(?:selectFrom|updateTable|insertInto|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\\(\\s*'(${names})(?:\\s+as\\s+\\w+)?'`,
    'g',
  );
  const text = new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO)\\s+(${names})\\b`, 'g');
  return sourceFiles(SRC).flatMap((full) => {
    const file = path.relative(SRC, full).split(path.sep).join('/');
    const source = fs.readFileSync(full, 'utf8');
    return [...source.matchAll(builder), ...source.matchAll(text)].map((m) => ({
      file,
      table: m[1] as string,
    }));
  });
}

describe('table owners', () => {
  const uses = tableUses();

  it('finds the owners’ own queries (the scan sees what it looks for)', () => {
    for (const [table, owner] of Object.entries(OWNERS))
      assert.ok(
        uses.some((u) => u.table === table && u.file.startsWith(owner)),
        `no query on ${table} in ${owner}`,
      );
  });

  it('writes the SQL of each table only in its owner, but for the listed exceptions', () => {
    const strays = uses
      .filter(({ file, table }) => !file.startsWith(OWNERS[table] as string))
      .map(({ file, table }) => `${file} -> ${table}`)
      .filter((use) => !EXCEPTIONS.has(use));
    assert.deepEqual([...new Set(strays)], []);
  });

  it('lists no exception that nothing needs any more', () => {
    const seen = new Set(uses.map(({ file, table }) => `${file} -> ${table}`));
    assert.deepEqual(
      [...EXCEPTIONS.keys()].filter((key) => !seen.has(key)),
      [],
    );
  });
});

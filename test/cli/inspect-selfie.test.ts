// `mimoto inspect selfie FILE --json`: the selfie spoof check on one still, in its stable form.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { runCli } from '../helpers/run-cli.ts';

const frame = (id: string) => path.resolve('test/fixtures/corpus', id, 'frames/00.jpg');

describe('mimoto inspect selfie', () => {
  it('prints risk, score and the signals that fired for a live frame of the corpus', async () => {
    const r = await runCli(['inspect', 'selfie', frame('drivers_license-genuine-0'), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      risk: string;
      score: number;
      signals: { name: string; score: number }[];
    };
    assert.deepEqual(Object.keys(out).sort(), ['risk', 'score', 'signals']);
    assert.equal(out.risk, 'low');
    assert.ok(out.score >= 0 && out.score < 0.4);
    for (const s of out.signals) assert.ok(s.score > 0 && typeof s.name === 'string');
  });

  it('says unknown for a picture with no face, and refuses a missing file with one line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inspect-selfie-'));
    const wall = path.join(dir, 'wall.jpg');
    writeFileSync(
      wall,
      await sharp({
        create: { width: 320, height: 240, channels: 3, background: { r: 190, g: 185, b: 170 } },
      })
        .jpeg()
        .toBuffer(),
    );
    const blank = await runCli(['inspect', 'selfie', wall, '--json']);
    assert.equal(blank.status, 0, blank.stderr);
    assert.equal((JSON.parse(blank.stdout) as { risk: string }).risk, 'unknown');
    const missing = await runCli(['inspect', 'selfie', '/nonexistent.jpg', '--json']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no such file/);
    const usage = await runCli(['inspect', 'selfie']).catch((e: Error) => e);
    assert.ok(usage instanceof Error || usage.status !== 0);
  });
});

// The committed sample under test/fixtures/corpus was written by
// `mimoto synth --out test/fixtures/corpus --seed 1 --count 1 --no-video --capture-width 640`.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseMrz } from 'mrz';
import sharp from 'sharp';
import {
  ATTACK_TYPES,
  DOCUMENT_TYPES,
  generateCorpus,
  isValidMyNumber,
  type Manifest,
  REFERENCE_DATE,
} from '../../src/synth/index.ts';
import { synthCommand } from '../../src/synth/synth.command.ts';

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/corpus');
const manifest = JSON.parse(readFileSync(path.join(fixtureDir, 'manifest.json'), 'utf8')) as Manifest;
const samples = manifest.samples;
const truthOf = (id: string) => {
  const sample = samples.find((s) => s.id === id);
  assert.ok(sample, id);
  return sample.truth as Record<string, unknown>;
};

test('the sample has a genuine bundle per document type and a bundle per attack type', () => {
  for (const type of DOCUMENT_TYPES) {
    assert.ok(
      samples.some((s) => s.documentType === type && s.attack === null),
      type,
    );
  }
  for (const attack of ATTACK_TYPES)
    assert.ok(
      samples.some((s) => s.attack === attack),
      attack,
    );
  assert.equal(samples.length, DOCUMENT_TYPES.length + ATTACK_TYPES.length);
});

test('every listed file exists and is a decodable image; passports have no back', async () => {
  for (const s of samples) {
    const files = [s.files.front, s.files.selfie, ...s.files.frames.map((f) => f.file)];
    if (s.documentType === 'passport') assert.equal(s.files.back, null, s.id);
    else files.push(s.files.back ?? 'missing back');
    for (const file of files) {
      const meta = await sharp(path.join(fixtureDir, file)).metadata();
      assert.equal(meta.format, 'jpeg', file);
    }
    assert.ok(s.files.frames.length >= 6, `${s.id} has a frame per pose`);
  }
});

test('truth holds every printed field in its canonical form', () => {
  for (const s of samples) {
    const t = s.truth as Record<string, unknown>;
    for (const key of [
      'lastName',
      'firstName',
      'lastNameKana',
      'firstNameKana',
      'address',
      'documentNumber',
    ]) {
      assert.equal(typeof t[key], 'string', `${s.id}.${key}`);
      assert.notEqual(t[key], '', `${s.id}.${key}`);
    }
    for (const key of ['birthDate', 'expiryDate', 'issueDate'])
      assert.match(String(t[key]), /^\d{4}-\d{2}-\d{2}$/, `${s.id}.${key}`);
    if (s.documentType === 'drivers_license') assert.match(String(t.documentNumber), /^\d{12}$/);
    if (s.documentType === 'residence_card')
      assert.match(String(t.documentNumber), /^[A-Z]{2}\d{8}[A-Z]{2}$/);
    if (s.documentType === 'passport') assert.match(String(t.documentNumber), /^[A-Z]{2}\d{7}$/);
    if (s.documentType === 'my_number_card') assert.match(String(t.myNumber), /^\d{12}$/);
    assert.ok(t.capture && typeof t.capture === 'object', `${s.id} records its capture parameters`);
    assert.equal(s.attack === null, t.attackDetails === null, `${s.id} attackDetails`);
  }
});

test('MRZ lines validate and My Numbers verify, except where the check digit is the attack', () => {
  for (const s of samples) {
    const t = s.truth as { mrz?: [string, string]; myNumber?: string };
    const broken = s.attack === 'bad_check_digit';
    if (s.documentType === 'passport') {
      assert.ok(t.mrz, s.id);
      assert.equal(t.mrz[0].length, 44);
      assert.equal(t.mrz[1].length, 44);
      assert.equal(parseMrz(t.mrz).valid, !broken, s.id);
    }
    if (s.documentType === 'my_number_card') assert.equal(isValidMyNumber(t.myNumber ?? ''), !broken, s.id);
  }
});

test('attack bundles differ from genuine ones in the way their label says', () => {
  assert.ok(String(truthOf('expired-0').expiryDate) < REFERENCE_DATE);
  for (const s of samples.filter((x) => x.attack !== 'expired')) {
    assert.ok(String((s.truth as { expiryDate: string }).expiryDate) > REFERENCE_DATE, `${s.id} valid`);
  }
  // A portrait swap: the attacker glues a print of their own face over the holder's issued
  // portrait and takes the selfie and the live check themselves.
  const swap = truthOf('portrait_swap-0') as {
    portraitPhoto: string;
    selfie: { person: string };
    liveness: { person: string };
    attackDetails: { portraitPerson: string; paste: { photoFile: string; rotation: number } };
  };
  const holder = samples.find((s) => s.id === 'portrait_swap-0')?.person ?? '';
  const attacker = swap.attackDetails.portraitPerson;
  assert.ok(attacker !== holder && swap.portraitPhoto.startsWith(holder));
  assert.ok(swap.attackDetails.paste.photoFile.startsWith(attacker));
  assert.deepEqual([swap.selfie.person, swap.liveness.person], [attacker, attacker]);
  assert.ok(Math.abs(swap.attackDetails.paste.rotation) <= 3);
  const other = samples.find((s) => s.attack === 'other_person');
  assert.ok(other);
  assert.notEqual((other.truth as { selfie: { person: string } }).selfie.person, other.person);
  const genuine = samples.find((s) => s.id === 'drivers_license-genuine-0');
  assert.ok(genuine);
  const g = genuine.truth as { portraitPhoto: string; selfie: { photo: string; person: string } };
  assert.equal(g.selfie.person, genuine.person);
  assert.notEqual(g.portraitPhoto, g.selfie.photo, 'portrait and selfie are different photos');
  const edit = truthOf('text_edit-0').attackDetails as { original: unknown; edited: unknown };
  assert.notDeepEqual(edit.original, edit.edited);
  const replay = truthOf('replayed_frames-0').liveness as { challenge: string[]; shownOrder: string[] };
  assert.notDeepEqual(replay.challenge, replay.shownOrder);
  const frames = samples.find((s) => s.attack === 'static_photo')?.files.frames ?? [];
  assert.ok(frames.every((f) => f.pose.yaw === 0 && f.pose.pitch === 0 && f.pose.scale === 1));
  const swapMid = truthOf('face_swap_midway-0').attackDetails as { swapPerson: string; swapAt: number };
  assert.ok(
    swapMid.swapAt > 0 && swapMid.swapPerson !== samples.find((s) => s.id === 'face_swap_midway-0')?.person,
  );
});

test('regenerating with the same seed gives byte-identical files', async () => {
  const only = ['passport-genuine-0', 'printed_copy-0', 'screen_replay-0', 'warped_photo-0'];
  const out = await mkdtemp(path.join(tmpdir(), 'synth-'));
  try {
    const again = await generateCorpus({
      outDir: out,
      seed: 1,
      count: 1,
      video: false,
      captureWidth: 640,
      only,
    });
    assert.deepEqual(
      again.samples,
      samples.filter((s) => only.includes(s.id)),
    );
    for (const s of again.samples) {
      const files = [s.files.front, s.files.back, s.files.selfie, ...s.files.frames.map((f) => f.file)];
      for (const file of files) {
        if (!file) continue;
        const [a, b] = await Promise.all([
          readFile(path.join(out, file)),
          readFile(path.join(fixtureDir, file)),
        ]);
        assert.ok(a.equals(b), `${file} differs`);
      }
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('a different seed gives different people and images', async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'synth-'));
  try {
    const other = await generateCorpus({
      outDir: out,
      seed: 2,
      count: 1,
      video: false,
      captureWidth: 640,
      only: ['passport-genuine-0'],
    });
    const mine = samples.find((s) => s.id === 'passport-genuine-0');
    assert.notDeepEqual(other.samples[0]?.truth, mine?.truth);
    assert.ok(existsSync(path.join(out, 'manifest.json')));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('mimoto synth rejects bad arguments with exit code 2', async () => {
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.equal(await synthCommand([]), 2);
    assert.equal(await synthCommand(['--out', '/tmp/x', '--seed', 'abc', '--count', '1']), 2);
    assert.equal(await synthCommand(['--out', '/tmp/x', '--seed', '1', '--count', '0']), 2);
    assert.equal(await synthCommand(['--out', '/tmp/x', '--seed', '1', '--count', '1', '--bogus']), 2);
  } finally {
    process.stderr.write = original;
  }
});

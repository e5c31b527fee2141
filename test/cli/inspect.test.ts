// `mimoto inspect` on the committed synthetic corpus (test/fixtures/corpus, made by `mimoto synth`),
// its JSON checked against the corpus truth. The command runs through the CLI's `main` in this
// process (its models loaded once for every case, not once per process); a refusal also runs as
// the separate process of bin/mimoto.js an operator starts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { type DocumentInspection, mrzFormat } from '../../src/main/inspect.ts';
import type { FaceMatch } from '../../src/webhooks/webhook-payload.schema.ts';
import { runBin, runCli } from '../helpers/run-cli.ts';

const CORPUS = path.resolve('test/fixtures/corpus');
const file = (p: string) => path.join(CORPUS, p);

interface Sample {
  id: string;
  documentType: string;
  truth: Record<string, unknown> & { mrz?: string[] };
}
const manifest = JSON.parse(readFileSync(file('manifest.json'), 'utf8')) as { samples: Sample[] };
const sample = (id: string) => {
  const s = manifest.samples.find((x) => x.id === id);
  assert.ok(s, id);
  return s;
};

const inspect = (args: string[]) => runCli(['inspect', ...args]);

async function inspectJson<T = DocumentInspection>(args: string[]): Promise<T> {
  const r = await inspect([...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}
const inspectFacesJson = (args: string[]) => inspectJson<Required<FaceMatch>>(['faces', ...args]);

describe('mimoto inspect document', () => {
  it('prints the OCR result, the fields as read, no MRZ and the spoof check for a genuine licence', async () => {
    const s = sample('drivers_license-genuine-0');
    const out = await inspectJson([
      'document',
      '--type',
      'drivers_license',
      '--front',
      file(`${s.id}/front.jpg`),
      '--back',
      file(`${s.id}/back.jpg`),
    ]);
    assert.deepEqual(Object.keys(out).sort(), ['documentSpoofCheck', 'fields', 'mrz', 'ocr']);
    assert.equal(out.ocr.status, 'success');
    assert.equal(out.ocr.detectedDocumentType, 'drivers_license');
    assert.deepEqual(out.ocr.payload, {
      lastName: s.truth.lastName,
      firstName: s.truth.firstName,
      birthDate: s.truth.birthDate,
      address: s.truth.address,
    });
    assert.deepEqual(out.fields, {
      lastName: s.truth.lastName,
      firstName: s.truth.firstName,
      birthDate: s.truth.birthDate,
      address: s.truth.address,
      documentNumber: s.truth.documentNumber,
      expiryDate: s.truth.expiryDate,
    });
    assert.equal(out.mrz, null);
    assert.equal(out.documentSpoofCheck.risk, 'low');
    // Only interface §2.9 fields: the numbers behind the verdict stay out of the API object.
    for (const key of Object.keys(out.documentSpoofCheck))
      assert.ok(
        [
          'risk',
          'score',
          'confidence',
          'details',
          'status',
          'provider',
          'model',
          'isDisplayAttack',
          'isForgedOrTampered',
        ].includes(key),
        key,
      );
  });

  it('gives a passport its MRZ lines, format and check digits', async () => {
    const s = sample('passport-genuine-0');
    const out = await inspectJson(['document', '--type', 'passport', '--front', file(`${s.id}/front.jpg`)]);
    assert.ok(out.mrz, 'an MRZ is read');
    assert.equal(out.mrz.format, 'TD3');
    assert.equal(out.mrz.valid, true);
    assert.equal(out.mrz.lines.length, 2);
    // Line 2 carries every check digit; it reads exactly as printed.
    assert.equal(out.mrz.lines[1], s.truth.mrz?.[1]);
    assert.equal(out.fields.documentNumber, s.truth.documentNumber);
    assert.equal(out.fields.expiryDate, s.truth.expiryDate);
  });

  it('judges expiry on the day given by --reference-date', async () => {
    const s = sample('expired-0');
    const args = ['document', '--type', 'drivers_license', '--front', file(`${s.id}/front.jpg`)];
    const today = await inspectJson(args);
    assert.equal(today.fields.expiryDate, s.truth.expiryDate);
    assert.match(today.documentSpoofCheck.details ?? '', /expired/);
    assert.notEqual(today.documentSpoofCheck.risk, 'low');
    const before = await inspectJson([...args, '--reference-date', '2024-01-01']);
    assert.doesNotMatch(before.documentSpoofCheck.details ?? '', /expired/);
  });

  it('prints a readable summary without --json', async () => {
    const s = sample('drivers_license-genuine-0');
    const r = await inspect(['document', '--type', 'drivers_license', '--front', file(`${s.id}/front.jpg`)]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ocr: success/);
    assert.ok(r.stdout.includes(`${s.truth.lastName} ${s.truth.firstName}`));
    assert.match(r.stdout, /documentSpoofCheck: risk low/);
  });

  it('refuses a missing, unreadable or unknown input with one line', async () => {
    const missing = runBin(['inspect', 'document', '--type', 'passport', '--front', file('no-such.jpg')]);
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, `mimoto inspect: --front ${file('no-such.jpg')}: no such file\n`);
    const notImage = await inspect(['document', '--type', 'passport', '--front', file('manifest.json')]);
    assert.equal(notImage.status, 1);
    assert.match(notImage.stderr, /^mimoto inspect: --front .*manifest\.json is not a readable image/);
    assert.equal(notImage.stderr.split('\n').length, 2);
    const badType = await inspect(['document', '--type', 'health_card', '--front', file('manifest.json')]);
    assert.equal(badType.status, 2);
    assert.match(
      badType.stderr,
      /--type must be one of drivers_license, my_number_card, residence_card, passport/,
    );
    const noFront = await inspect(['document', '--type', 'passport']);
    assert.equal(noFront.status, 2);
    assert.match(noFront.stderr, /--front FILE is required/);
  });
});

describe('mimoto inspect faces', () => {
  it('says the same person for a genuine document and selfie, another for an impostor', async () => {
    const genuine = await inspectFacesJson([
      file('drivers_license-genuine-0/front.jpg'),
      file('drivers_license-genuine-0/selfie.jpg'),
      '--type',
      'drivers_license',
    ]);
    assert.equal(genuine.status, 'success');
    assert.equal(genuine.isSamePerson, true);
    assert.ok(genuine.similarity > 0.5 && genuine.similarity <= 1, String(genuine.similarity));
    const impostor = await inspectFacesJson([
      file('other_person-0/front.jpg'),
      file('other_person-0/selfie.jpg'),
      '--type',
      sample('other_person-0').documentType,
    ]);
    assert.equal(impostor.status, 'success');
    assert.equal(impostor.isSamePerson, false);
    assert.equal(impostor.reason, 'face_mismatch');
    assert.ok(impostor.similarity < genuine.similarity);
  });

  it('reports a picture without a face and refuses a missing file', async () => {
    const noFace = await inspectFacesJson([
      file('drivers_license-genuine-0/back.jpg'),
      file('passport-genuine-0/selfie.jpg'),
    ]);
    assert.equal(noFace.status, 'no_face_document');
    assert.equal(noFace.isSamePerson, false);
    const missing = await inspect(['faces', file('a.jpg'), file('passport-genuine-0/selfie.jpg')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^mimoto inspect: FILE_A .*a\.jpg: no such file\n$/);
    const one = await inspect(['faces', file('passport-genuine-0/selfie.jpg')]);
    assert.equal(one.status, 2);
  });
});

describe('the MRZ format of the inspection', () => {
  // ICAO 9303 part 5–7 specimen lines (Utopia).
  it('is told by the count and length of the lines', () => {
    assert.equal(
      mrzFormat([
        'I<UTOD231458907<<<<<<<<<<<<<<<',
        '7408122F1204159UTO<<<<<<<<<<<6',
        'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
      ]),
      'TD1',
    );
    assert.equal(
      mrzFormat(['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6']),
      'TD2',
    );
    assert.equal(
      mrzFormat([
        'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
        'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
      ]),
      'TD3',
    );
    assert.equal(mrzFormat(['P<UTOERIKSSON<<ANNA', 'L898902C36UTO7408122F']), 'unknown');
  });
});

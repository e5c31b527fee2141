// The thickness capture (厚み), a tenant option: off by default (no step, an upload refused); on, the
// flow asks for the card held tilted after its sides, refuses a photo that is not the card tilted
// (the front again) with a message, keeps the tilted card, and will not submit without it. The
// check itself on synthetic photos (test/fixtures/thickness): the card's edge seen on the tilted
// card, none on a cut-out copy, and the documentSpoofCheck naming the missing edge.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import {
  measureCardThickness,
  thicknessCue,
  tiltedCaptureProblem,
} from '../../src/checks/document-spoof/card-thickness.ts';
import { documentSpoofCheck } from '../../src/checks/document-spoof/index.ts';
import { closeInferencePool } from '../../src/inference/index.ts';
import { findTenant, updateTenantSettings } from '../../src/tenants/index.ts';
import { useTestApi } from '../helpers/api-client.ts';
import { dataDirEnv, FlowClient } from './flow-helpers.ts';

const DIR = 'test/fixtures/thickness';
const front = readFileSync(`${DIR}/front.jpg`);
const back = readFileSync(`${DIR}/back.jpg`);
const tiltedCard = readFileSync(`${DIR}/tilted-card.jpg`);
const paperCopy = readFileSync(`${DIR}/tilted-paper-copy.jpg`);
const screen = readFileSync(`${DIR}/tilted-screen.jpg`);

describe('the thickness check on synthetic photos', () => {
  test('the card held tilted: found, tilted, the front’s card, its edge seen — no cue', async () => {
    const evidence = await measureCardThickness(front, tiltedCard);
    assert.equal(evidence.found, true);
    assert.ok(evidence.tiltDegrees >= 25, `tilt read ${evidence.tiltDegrees}°`);
    assert.equal(tiltedCaptureProblem(evidence), null);
    assert.equal(evidence.edgeSeen, true, JSON.stringify(evidence.edge));
    assert.equal(thicknessCue(evidence).score, 0);
  });

  test('a cut-out paper copy held the same way shows no edge: the cue asks for review', async () => {
    const evidence = await measureCardThickness(front, paperCopy);
    assert.equal(tiltedCaptureProblem(evidence), null, 'it is the front’s card, tilted');
    assert.equal(evidence.edgeSeen, false, JSON.stringify(evidence.edge));
    const cue = thicknessCue(evidence);
    assert.ok(cue.score >= 0.4 && cue.score < 0.7, `score ${cue.score}`);
    assert.match(cue.name, /no card edge/);
  });

  test('a phone screen showing the card is not taken as the card', async () => {
    const evidence = await measureCardThickness(front, screen);
    assert.ok(thicknessCue(evidence).score >= 0.4);
  });

  test('the front photographed again (not tilted) is refused as not tilted', async () => {
    assert.equal(tiltedCaptureProblem(await measureCardThickness(front, front)), 'TiltedCardNotTilted');
  });

  test('the documentSpoofCheck names the missing edge of a tilted copy and does not pass it as low', async () => {
    const { result, measurements } = await documentSpoofCheck.run({ front, back, tilted: paperCopy });
    assert.notEqual(result.risk, 'low');
    assert.match(result.details ?? '', /thickness capture shows no card edge/);
    const cue = measurements.cues.find((c) => c.name.startsWith('thickness capture'));
    assert.ok(cue && cue.score >= 0.4);
  });
});

describe('the thickness step in the flow (a tenant option)', () => {
  const t = useTestApi({ env: dataDirEnv() });
  after(() => closeInferencePool());
  const ready = async () => {
    const a = await FlowClient.enter(t);
    await a.send('POST', '/verify/api/consent');
    await a.send('PUT', '/verify/api/document-type', { documentType: 'drivers_license' });
    return a;
  };
  const setThickness = async (on: boolean) => {
    const db = t.platform.database.db;
    const tenant = await findTenant(db, t.tenant.tenantId);
    await updateTenantSettings(db, t.tenant.tenantId, { ...tenant!.settings, thicknessCapture: on });
  };

  test('off by default: no tilted step, and a tilted upload is out of order', async () => {
    const a = await ready();
    assert.equal((await a.state()).json().steps.tilted, null);
    const res = await a.upload('/verify/api/documents/tilted', [{ field: 'image', bytes: tiltedCard }]);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error, 'FlowStepOutOfOrder');
  });

  test('on: asked after the sides; the front again is refused in the user’s language; the tilted card is kept', async () => {
    await setThickness(true);
    try {
      const a = await ready();
      assert.equal((await a.state()).json().steps.tilted, false);
      // Compared with the front, so the front comes first.
      const early = await a.upload('/verify/api/documents/tilted', [{ field: 'image', bytes: tiltedCard }]);
      assert.equal(early.statusCode, 409, early.body);
      const stored = await a.upload('/verify/api/documents/front', [{ field: 'image', bytes: front }]);
      assert.equal(stored.statusCode, 201, stored.body);
      const flat = await a.upload(
        '/verify/api/documents/tilted',
        [{ field: 'image', bytes: front }],
        {},
        {
          'accept-language': 'ja',
        },
      );
      assert.equal(flat.statusCode, 422, flat.body);
      assert.equal(flat.json().error, 'TiltedCardNotTilted');
      assert.match(flat.json().message, /傾き/);
      assert.equal((await a.state()).json().steps.tilted, false, 'nothing stored');
      const tilted = await a.upload('/verify/api/documents/tilted', [{ field: 'image', bytes: tiltedCard }]);
      assert.equal(tilted.statusCode, 201, tilted.body);
      assert.equal((await a.state()).json().steps.tilted, true);
      // The user's own photo, for the review's thumbnail.
      const image = await t.api.app.inject({
        method: 'GET',
        url: '/verify/api/documents/tilted/image',
        headers: { cookie: `mimoto_flow=${a.cookie}` },
      });
      assert.equal(image.statusCode, 200);
      assert.equal(image.headers['content-type'], 'image/jpeg');
    } finally {
      await setThickness(false);
    }
  });

  test('on: the submission names the missing tilted photo', async () => {
    await setThickness(true);
    try {
      const a = await ready();
      const res = await a.send('POST', '/verify/api/submit');
      assert.equal(res.statusCode, 409);
      assert.ok(
        res.json().details.some((d: { path: string }) => d.path === '/steps/tilted'),
        JSON.stringify(res.json().details),
      );
    } finally {
      await setThickness(false);
    }
  });
});

// Every fraud signal, on plain facts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeFraudSignals, type FraudFacts } from '../../../src/checks/fraud-signals/index.ts';

function clean(): FraudFacts {
  return {
    now: new Date('2026-04-01T10:00:00Z'),
    minimumAge: 18,
    sameFaceSimilarity: 0.75,
    sameFaceSessions: [],
    sameDocumentSessions: [],
    identitiesFromIpLastHour: 1,
    clientIp: '203.0.113.7',
    firstAccessIp: '203.0.113.7',
    userInput: {
      lastName: '山田',
      firstName: '太郎',
      birthDate: '1990-04-01',
      address: '東京都千代田区1-2-3',
    },
    ocr: {
      lastName: '山田',
      firstName: '太郎',
      birthDate: '1990-04-01',
      address: '東京都千代田区一丁目2番3号',
    },
    expiryDate: '2030-01-01',
    expiryDateReliable: true,
    birthDate: '1990-04-01',
    checkDigitsValid: true,
    flowSeconds: 95,
    livenessSeconds: 8,
    blacklistHits: [],
  };
}

const codes = (facts: FraudFacts) => analyzeFraudSignals(facts).signals.map((s) => s.code);

test('a clean session has no signal and risk 0', () => {
  const a = analyzeFraudSignals(clean());
  assert.deepEqual(a.signals, []);
  assert.equal(a.riskScore, 0);
  assert.equal(a.documentExpired, false);
});

test('each fact raises its signal', () => {
  const cases: [Partial<FraudFacts>, string][] = [
    [
      { sameFaceSessions: [{ sessionId: 'vs_x', similarity: 0.9, differentIdentity: true }] },
      'same_face_different_identity',
    ],
    [{ sameDocumentSessions: [{ sessionId: 'vs_y', faceSimilarity: 0.2 }] }, 'same_document_different_face'],
    [{ identitiesFromIpLastHour: 6 }, 'ip_velocity'],
    [{ firstAccessIp: '198.51.100.1' }, 'ip_mismatch'],
    [{ ocr: { lastName: '山田', firstName: '花子', birthDate: '1990-04-01' } }, 'user_input_ocr_mismatch'],
    [{ expiryDate: '2025-12-31' }, 'document_expired'],
    [{ birthDate: '2010-05-01' }, 'underage'],
    [{ checkDigitsValid: false }, 'check_digit_failure'],
    [{ flowSeconds: 4 }, 'capture_too_fast'],
    [{ livenessSeconds: 0.5 }, 'liveness_too_fast'],
    [
      { blacklistHits: [{ id: 'bl_1', matchMode: 'exact', action: 'reject', on: 'document_number' }] },
      'blacklist_match',
    ],
  ];
  for (const [change, code] of cases) {
    const got = codes({ ...clean(), ...change });
    assert.deepEqual(got, [code], `${code}: got ${got.join(',')}`);
  }
});

test('the same face with the same identity, or the same document with the same face, is no signal', () => {
  assert.deepEqual(
    codes({
      ...clean(),
      sameFaceSessions: [{ sessionId: 'vs_x', similarity: 0.9, differentIdentity: false }],
    }),
    [],
  );
  assert.deepEqual(
    codes({ ...clean(), sameDocumentSessions: [{ sessionId: 'vs_y', faceSimilarity: 0.92 }] }),
    [],
  );
});

test('age is counted to the day; the tenant minimum applies', () => {
  assert.deepEqual(codes({ ...clean(), birthDate: '2008-04-01' }), []); // 18 today
  assert.deepEqual(codes({ ...clean(), birthDate: '2008-04-02' }), ['underage']); // 18 tomorrow
  assert.deepEqual(codes({ ...clean(), birthDate: '2008-04-01', minimumAge: 20 }), ['underage']);
});

test('riskScore: several signals add up and cap at 100; two high signals reach the reject level', () => {
  const two = analyzeFraudSignals({ ...clean(), birthDate: '2012-01-01', checkDigitsValid: false });
  assert.equal(two.riskScore, 80);
  const many = analyzeFraudSignals({
    ...clean(),
    birthDate: '2012-01-01',
    checkDigitsValid: false,
    identitiesFromIpLastHour: 12,
    flowSeconds: 3,
  });
  assert.equal(many.riskScore, 100);
  for (const s of many.signals) assert.ok(s.type && s.severity && s.message && s.code);
});

test('an expired document is flagged for the decision', () => {
  assert.equal(analyzeFraudSignals({ ...clean(), expiryDate: '2026-03-31' }).documentExpired, true);
  assert.equal(analyzeFraudSignals({ ...clean(), expiryDate: '2026-04-01' }).documentExpired, false);
});

test('an expiry date read on a poor capture is shown as a low signal, not acted on', () => {
  const a = analyzeFraudSignals({ ...clean(), expiryDate: '2025-09-12', expiryDateReliable: false });
  assert.equal(a.documentExpired, false);
  assert.deepEqual(
    a.signals.map((s) => [s.code, s.severity]),
    [['document_expired', 'low']],
  );
  assert.match(a.signals[0]?.message ?? '', /may have expired on 2025-09-12/);
});

// Whose identity a session's fraud facts use (gather-fraud-facts.ts sessionIdentity).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionIdentity } from '../../src/pipeline/gather-fraud-facts.ts';

const typed = { lastName: '山田', firstName: '太郎', birthDate: '1990-04-01' } as never;
const ocr = (status: string) => ({
  status,
  payload: { lastName: '山田', firstName: '大郎', birthDate: '1990-04-07' },
});

test('the document read with confidence is the identity', () => {
  assert.deepEqual(sessionIdentity({ ocr: ocr('success'), userInput: typed }), {
    lastName: '山田',
    firstName: '大郎',
    birthDate: '1990-04-07',
  });
});

test("a poor capture's reading is not: what the user typed is", () => {
  // 大郎 for 太郎, 07 for 01: a low_confidence reading's misreads would make this person's next
  // session "the same face with different identity data".
  assert.deepEqual(sessionIdentity({ ocr: ocr('low_confidence'), userInput: typed }), {
    lastName: '山田',
    firstName: '太郎',
    birthDate: '1990-04-01',
  });
  assert.deepEqual(sessionIdentity({ ocr: ocr('low_confidence'), userInput: null }), {
    lastName: undefined,
    firstName: undefined,
    birthDate: undefined,
  });
});

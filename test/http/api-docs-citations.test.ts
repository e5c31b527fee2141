// What /docs, /openapi.json and the webhook JSON Schema tell a reader must be readable without
// anything outside the repository: they cite the API reference (docs/api-reference.md), never a
// contract file the reader does not have.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { useTestApi } from '../helpers/api-client.ts';

const OUTSIDE = /interface §|interface\.md|design\.md|\.\.\/shared/i;

describe('API docs cite only what the reader has', () => {
  const t = useTestApi();
  const get = async (url: string) => (await t.api.app.inject({ method: 'GET', url })).body;

  for (const url of ['/docs', '/openapi.json', '/schemas/webhook-payload.json']) {
    it(`${url} cites no file outside the repository`, async () => {
      const body = await get(url);
      assert.doesNotMatch(body, OUTSIDE);
    });
  }

  it('the guides of /docs explain the 10-second link, the callback URL’s GET and POST, and the signature', async () => {
    const guides = JSON.parse(await get('/openapi.json')).info.description as string;
    for (const text of [
      '10 seconds',
      'a GET from their browser',
      'POST',
      'X-Service-Signature',
      'docs/api-reference.md',
    ])
      assert.ok(guides.includes(text), `mentions ${text}`);
  });

  it('every § cited in the OpenAPI document is a heading of docs/api-reference.md', async () => {
    const reference = fs.readFileSync('docs/api-reference.md', 'utf8');
    const headings = new Set([...reference.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]));
    const cited = [...(await get('/openapi.json')).matchAll(/§(\d+(?:\.\d+)?)/g)].map((m) => m[1]);
    assert.ok(cited.length > 0);
    for (const section of cited) assert.ok(headings.has(section), `§${section} is a heading`);
  });
});

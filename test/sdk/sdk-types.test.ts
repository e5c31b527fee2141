// The SDK's types are generated from the service's OpenAPI document: regenerated here from the
// document the routes produce, they must equal the committed file, so the SDK cannot drift from
// the API. After changing a route schema: MIMOTO_UPDATE_SDK_TYPES=1 node --import tsx --test test/sdk/sdk-types.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { generateTypes, type OpenApiDocument } from '../../packages/node/scripts/generate-types.ts';
import { useTestApi } from '../helpers/api-client.ts';

const TYPES_FILE = 'packages/node/src/types.gen.ts';

describe('@mimoto/node types', () => {
  const t = useTestApi();

  it('equal the types generated from the OpenAPI document of the running service', async () => {
    const document = t.api.app.swagger() as unknown as OpenApiDocument;
    const generated = generateTypes(document);
    if (process.env.MIMOTO_UPDATE_SDK_TYPES === '1') fs.writeFileSync(TYPES_FILE, generated);
    assert.equal(
      fs.readFileSync(TYPES_FILE, 'utf8'),
      generated,
      `${TYPES_FILE} is out of date: run MIMOTO_UPDATE_SDK_TYPES=1 node --import tsx --test test/sdk/sdk-types.test.ts`,
    );
  });

  it('name every /v1 operation of the document, with its error codes', async () => {
    const document = t.api.app.swagger() as unknown as OpenApiDocument;
    const ids = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([, methods]) => Object.values(methods).map((op) => op.operationId));
    assert.ok(ids.length >= 8);
    const types = fs.readFileSync(TYPES_FILE, 'utf8');
    for (const id of ids) {
      assert.ok(id, 'every /v1 operation has an operationId');
      assert.match(types, new RegExp(`\\n  ${id}: \\{`), id);
    }
    const start = types.indexOf('\n  getSession: {');
    const getSession = types.slice(start, types.indexOf('\n  };', start));
    assert.match(getSession, /errors: [^;]*"NotFound"/);
    assert.doesNotMatch(getSession, /EmailTaken|CallbackUrlNotAllowed/, 'only the errors of the route');
  });
});

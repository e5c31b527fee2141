import { buildApp } from '../src/app.ts';
import { createTestPlatform } from './helpers/test-platform.ts';
import { generateTypes } from '../packages/node/scripts/generate-types.ts';
const platform = await createTestPlatform();
const app = await buildApp(platform);
await app.ready();
const doc = app.swagger() as never;
process.stdout.write(generateTypes(doc));
await app.close(); await platform.close();

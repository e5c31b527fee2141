// What the OpenAPI document carries beyond the route schemas: the guides (docs/guides/*.md, in file
// order), the webhooks section, the schema names the SDK's types take, and examples.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenApiExtras } from './platform/http/openapi.ts';
import {
  SESSION_EXAMPLES,
  SESSION_MEDIA_TYPES,
  SESSION_OPTIONAL_BODIES,
  SESSION_SCHEMA_NAMES,
} from './sessions/index.ts';
import { webhookOperations, webhookPayloadComponents } from './webhooks/index.ts';

const GUIDES_DIR = fileURLToPath(new URL('../docs/guides/', import.meta.url));

export function readGuides(dir = GUIDES_DIR): string {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8').trim())
    .join('\n\n');
}

export function apiDocumentExtras(): OpenApiExtras {
  return {
    description: readGuides(),
    webhooks: webhookOperations(),
    schemas: webhookPayloadComponents(),
    names: SESSION_SCHEMA_NAMES,
    // A JSON round trip drops the example fields set to undefined (an erased session's).
    examples: JSON.parse(JSON.stringify(SESSION_EXAMPLES)),
    optionalBodies: SESSION_OPTIONAL_BODIES,
    mediaTypes: SESSION_MEDIA_TYPES,
  };
}

// Turns the service's OpenAPI 3.1 document into the SDK's types (src/types.gen.ts): the named
// schemas, each operation's request, response and error codes, and the webhook payloads. The root
// test suite regenerates them from the running service's document and fails when the committed
// file differs, so the SDK's types cannot drift from the API.

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
};

type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};

export type OpenApiDocument = {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const comment = (text: string | undefined, pad: string) =>
  text ? `${pad}/** ${text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim()} */\n` : '';

function typeOf(schema: Schema | undefined, pad: string): string {
  if (!schema) return 'unknown';
  if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((s) => typeOf(s, pad)).join(' | ');
  if (schema.allOf) return schema.allOf.map((s) => typeOf(s, pad)).join(' & ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.type))
    return schema.type.map((t) => typeOf({ ...schema, type: t }, pad)).join(' | ');
  switch (schema.type) {
    case 'string':
      return schema.format === 'binary' ? 'Uint8Array' : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items, pad);
      return /^[A-Za-z0-9_]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
    case undefined:
      return schema.properties || schema.additionalProperties !== undefined || schema.type === 'object'
        ? objectType(schema, pad)
        : 'unknown';
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema, pad: string): string {
  const inner = `${pad}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, property]) =>
      `${comment(property.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};\n`,
  );
  const extra = schema.additionalProperties;
  // Open objects (no additionalProperties: false) may gain fields: receivers keep them reachable.
  if (extra === undefined || extra === true) lines.push(`${inner}[key: string]: unknown;\n`);
  else if (typeof extra === 'object') lines.push(`${inner}[key: string]: ${typeOf(extra, inner)};\n`);
  return lines.length ? `{\n${lines.join('')}${pad}}` : 'Record<string, never>';
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

export function generateTypes(document: OpenApiDocument): string {
  const out: string[] = [
    "// Generated from the service's OpenAPI document by scripts/generate-types.ts. Do not edit:",
    '// change the route schemas, then regenerate (packages/node/README.md "Types").',
    '/* eslint-disable */',
    '',
  ];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(`${comment(schema.description, '')}export type ${name} = ${typeOf(schema, '')};`, '');
  }
  const operations: string[] = [];
  const allCodes = new Set<string>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const id = operation.operationId;
      if (!id) continue;
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      if (query.length > 0) {
        const properties = Object.fromEntries(
          query.map((p) => [p.name, { ...p.schema, description: p.description }]),
        );
        const required = query.filter((p) => p.required).map((p) => p.name);
        out.push(
          `/** Query of ${method.toUpperCase()} ${path}. */`,
          `export type ${pascal(id)}Query = ${typeOf({ type: 'object', properties, required, additionalProperties: false }, '')};`,
          '',
        );
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const codes = new Set<string>();
      let success = 'unknown';
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400) {
          for (const part of (response.description ?? '').split('; ')) {
            const code = part.slice(0, part.indexOf(':'));
            if (/^[A-Z][A-Za-z]+$/.test(code)) codes.add(code);
          }
        } else if (success === 'unknown') {
          const media = Object.values(response.content ?? {})[0];
          success = typeOf(media?.schema, '    ');
        }
      }
      for (const code of codes) allCodes.add(code);
      operations.push(
        `  /** ${operation.summary ?? id} */\n  ${id}: {\n` +
          `    method: ${JSON.stringify(method.toUpperCase())};\n    path: ${JSON.stringify(path)};\n` +
          `    request: ${body ? typeOf(body, '    ') : 'never'};\n` +
          `    requestRequired: ${operation.requestBody?.required === true};\n` +
          `    query: ${query.length ? `${pascal(id)}Query` : 'never'};\n` +
          `    response: ${success};\n` +
          `    errors: ${[...codes].map((c) => JSON.stringify(c)).join(' | ') || 'never'};\n  };`,
      );
    }
  }
  out.push(
    '/** Every operation of the API: its route, request, response and the error codes it can answer. */',
  );
  out.push(`export interface Operations {\n${operations.join('\n')}\n}`, '');
  out.push('export type OperationId = keyof Operations;', '');
  out.push(
    '/** Every error code an operation of the API can answer with (the error field of the body). */',
    `export type ErrorCode = ${[...allCodes]
      .sort()
      .map((c) => JSON.stringify(c))
      .join(' | ')};`,
    '',
  );
  return `${out.join('\n')}`;
}

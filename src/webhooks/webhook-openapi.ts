// The published forms of what build-webhook-payload.ts sends, all derived from the event kinds
// (webhook-event-kinds.ts): the closed union every example is checked against, the open schema
// served at /schemas/webhook-payload.json, and the OpenAPI document's `webhooks` section and payload
// components, with the headers of interface §6.3 and the kinds' examples.
import { Type } from '@sinclair/typebox';
import type { WebhookEventName } from '../domain/index.ts';
import { type WebhookEventKindDefinition, webhookEventKinds } from './webhook-event-kinds.ts';
import { opened, WEBHOOK_PAYLOAD_SCHEMA_ID } from './webhook-payload.schema.ts';

type Json = Record<string, unknown>;
type Kind = WebhookEventKindDefinition<never, unknown>;

/** Everything v1 sends, closed: each payload is checked against it before it is stored. */
export const WebhookPayloadSchema = Type.Union(
  webhookEventKinds().map(([, definition]) => definition.schema),
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: WEBHOOK_PAYLOAD_SCHEMA_ID,
    title: 'Webhook payload',
    description:
      'Body of the POST sent to the callbackUrl (API reference §6.2). Signed with X-Service-Signature over the raw bytes (API reference §6.4). ' +
      'Receivers should ignore unknown event kinds and fields (API reference §6.5).',
  },
);

/** Event names in the order the kinds list them, each with the kinds that send it. */
function kindsByEvent(): Map<WebhookEventName, Kind[]> {
  const byEvent = new Map<WebhookEventName, Kind[]>();
  for (const [, definition] of webhookEventKinds())
    for (const event of definition.events) byEvent.set(event, [...(byEvent.get(event) ?? []), definition]);
  return byEvent;
}

const oneOrAny = (schemas: unknown[]) => (schemas.length === 1 ? schemas[0] : { anyOf: schemas });

/** JSON Schema's if/then (draft-07), written so that no object literal has a `then` key. */
const conditional = (condition: unknown, consequence: unknown) =>
  Object.fromEntries([
    ['if', condition],
    ['then', consequence],
  ]);

const eventIs = (events: readonly string[]) => ({
  properties: { event: { enum: [...events] } },
  required: ['event'],
});

/**
 * The schema tenants get at WEBHOOK_PAYLOAD_SCHEMA_ID (§6.2 rule 5): the payloads above with unknown
 * fields and values allowed, chosen by event kind, and any other event kind accepted as long as it
 * names the verification (§6.5 rule 4: receivers must not break on additions).
 */
export function publishedWebhookPayloadSchema(): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(WebhookPayloadSchema)) as Record<string, unknown>;
  // Events sent by the same kinds share one condition.
  const groups = new Map<string, { events: WebhookEventName[]; kinds: Kind[] }>();
  for (const [event, kinds] of kindsByEvent()) {
    const key = kinds.map((kind) => kind.openApi.component).join(' ');
    const group = groups.get(key) ?? { events: [], kinds };
    group.events.push(event);
    groups.set(key, group);
  }
  return {
    $schema: plain.$schema,
    $id: plain.$id,
    title: plain.title,
    description:
      `${plain.description} The payload is chosen by event; an event kind not listed here carries at ` +
      'least event, verificationId and tenantId.',
    type: 'object',
    required: ['event', 'verificationId', 'tenantId'],
    properties: {
      event: {
        type: 'string',
        description: `Event kind (known: ${[...kindsByEvent().keys()].join(', ')})`,
      },
      verificationId: { type: 'string', minLength: 1 },
      tenantId: { type: 'string', minLength: 1 },
    },
    allOf: [...groups.values()].map(({ events, kinds }) =>
      conditional(
        eventIs(events),
        oneOrAny(kinds.map((kind) => opened(JSON.parse(JSON.stringify(kind.schema))))),
      ),
    ),
  };
}

const plain = (schema: unknown): Json => {
  const copy = opened(JSON.parse(JSON.stringify(schema))) as Json;
  delete copy.$id;
  delete copy.$schema;
  return copy;
};

/** Payload schemas for components.schemas, named as the SDK's types are. */
export function webhookPayloadComponents(): Record<string, Json> {
  return Object.fromEntries(
    webhookEventKinds().map(([, definition]) => [definition.openApi.component, plain(definition.schema)]),
  );
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const header = (name: string, description: string, required = true) => ({
  name,
  in: 'header',
  required,
  description,
  schema: { type: 'string' },
});

const HEADERS = [
  header(
    'X-Service-Signature',
    'sha256= and the lowercase hex HMAC-SHA256 of the raw body, keyed with your webhook secret (API reference §6.4)',
  ),
  header('X-Service-Event', 'The event kind, as the payload field event'),
  header('X-Service-Delivery', "The event's id, the same on every retry of it: deduplicate on it"),
  header('X-Service-Attempt', '1 for the first try, 2 for the first retry, …'),
];

function webhook(summary: string, description: string, schema: Json, examples: Record<string, unknown>) {
  return {
    post: {
      summary,
      description,
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema, examples } } },
      responses: {
        '200': {
          description:
            'Any 2xx within 5 seconds: delivered. Anything else is retried; 410 stops the retries.',
        },
      },
    },
  };
}

/** The `webhooks` object of the OpenAPI 3.1 document: one entry per event name. */
export function webhookOperations(): Json {
  const all = webhookEventKinds().map(([, definition]) => definition);
  return Object.fromEntries(
    [...kindsByEvent()].map(([event, kinds]) => {
      const first = kinds[0]!;
      const summary = all.map((kind) => kind.openApi.summaries[event]).find(Boolean) ?? event;
      const examples = Object.fromEntries(
        kinds.flatMap((kind) =>
          kind.openApi.examples
            .filter((example) => example.value.event === event)
            .map(({ key, summary, value }) => [key, { summary, value }]),
        ),
      );
      const schema = oneOrAny(kinds.map((kind) => ref(kind.openApi.component))) as Json;
      return [event, webhook(summary, first.openApi.description, schema, examples)];
    }),
  );
}

// Builds the §6.2 payload of one event and serialises it once (interface §6.4: the bytes are
// stored with the event and sent byte-identical on every attempt). Every payload is checked
// against its kind's closed schema before it leaves this module, so the published schema and what
// we send cannot drift apart.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { WebhookEventKind } from '../domain/index.ts';
import {
  InvalidWebhookPayloadError,
  WEBHOOK_EVENT_KIND_DEFINITIONS,
  type WebhookEventInput,
  type WebhookEventPayload,
  type WebhookPayload,
  webhookEventKinds,
} from './webhook-event-kinds.ts';

const checkers = new Map(
  webhookEventKinds().map(([kind, definition]) => [kind, TypeCompiler.Compile(definition.schema)]),
);

/**
 * Returns the payload exactly as a receiver will parse it (field order of §6.2, timestamps as
 * ISO 8601 UTC, undefined fields dropped). Throws InvalidWebhookPayloadError when the result would
 * not match the kind's schema: a bug to surface, never an event to send.
 */
export function buildWebhookPayload<K extends WebhookEventKind>(
  kind: K,
  input: WebhookEventInput<K>,
): WebhookEventPayload<K> {
  const build = WEBHOOK_EVENT_KIND_DEFINITIONS[kind].build as (input: WebhookEventInput<K>) => unknown;
  // A JSON round trip gives the receiver's view: drops undefined, turns NaN into null (then refused).
  const payload: unknown = JSON.parse(JSON.stringify(build(input)));
  const check = checkers.get(kind)!;
  if (!check.Check(payload)) {
    const problems = [...check.Errors(payload)].slice(0, 10).map((e) => `${e.path || '/'} ${e.message}`);
    throw new InvalidWebhookPayloadError(problems);
  }
  return payload as WebhookEventPayload<K>;
}

/** Serialise once; store these bytes and send them on every attempt (docs/decisions.md "Webhooks"). */
export function serializeWebhookPayload(payload: WebhookPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

// What other capabilities use of webhooks (style.md: through the folder's index.ts). The code that
// makes an event happen calls recordWebhookEvent inside its own transaction; the worker role runs
// the delivery worker.

export {
  type ResolveHost,
  type UrlVetting,
  vetWebhookUrl,
  type WebhookEnvironment,
} from '../platform/net/ssrf-guard.ts';
export { buildWebhookPayload, serializeWebhookPayload } from './build-webhook-payload.ts';
export {
  DELIVERY_TIMEOUT_MS,
  type DeliveryErrorClass,
  type DeliveryOptions,
  type DeliveryOutcome,
  type DeliveryResult,
  deliverWebhook,
  RESPONSE_SNIPPET_BYTES,
  type WebhookRequest,
} from './deliver-webhook.ts';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_PER_ENDPOINT,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
  redeliverWebhookEvent,
  startWebhookDeliveryWorker,
  WebhookEventBusyError,
} from './delivery-worker.ts';
export { EndpointConcurrencyLimiter, endpointKey } from './endpoint-concurrency.ts';
export {
  formatWebhookEvents,
  listSessionWebhookEvents,
  listTenantWebhookEvents,
  readWebhookEventBody,
  showWebhookEvent,
  type WebhookAttemptView,
  type WebhookEventView,
} from './list-webhook-events.ts';
export {
  eventBodyContext,
  recordWebhookEvent,
  type WebhookEventSession,
  WebhookEventSessionError,
} from './record-webhook-event.ts';
export {
  DEFAULT_RETRY_SCHEDULE,
  MAX_ATTEMPTS,
  nextAttemptAt,
  RETRY_OFFSETS_MS,
  type RetrySchedule,
} from './retry-schedule.ts';
export {
  isSnippetFull,
  sendTestWebhook,
  TEST_WEBHOOK_EVENT,
  type TestWebhookOutcome,
} from './send-test-webhook.ts';
export { signWebhookBody } from './sign-webhook.ts';
export { verifyWebhookSignature } from './verify-webhook-signature.ts';
export {
  type AutomaticDecisionEventInput,
  type ExpiredEventInput,
  eventForStatus,
  InvalidWebhookPayloadError,
  type ReviewOutcomeEventInput,
  WEBHOOK_EVENT_KIND_DEFINITIONS,
  type WebhookEventInput,
  type WebhookEventKindDefinition,
  type WebhookEventPayload,
  type WebhookPayload,
} from './webhook-event-kinds.ts';
export { deleteSessionEvents } from './webhook-event-repository.ts';
export {
  publishedWebhookPayloadSchema,
  WebhookPayloadSchema,
  webhookOperations,
  webhookPayloadComponents,
} from './webhook-openapi.ts';
export {
  DECISION_REASON_CODES,
  DecisionMetadataSchema,
  type DecisionReasonCode,
  EXPIRED_EVENT,
  FaceMatchSchema,
  FraudSignalAnalysisSchema,
  OcrResultSchema,
  SpoofCheckSchema,
  WEBHOOK_EVENTS,
  WEBHOOK_PAYLOAD_SCHEMA_ID,
  type WebhookEvent,
} from './webhook-payload.schema.ts';

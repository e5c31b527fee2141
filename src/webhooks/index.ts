// What other capabilities use of webhooks (style.md: through the folder's index.ts). Deciding code
// calls recordDecisionEvent inside its own transaction; the worker role runs the delivery worker.

export {
  type ResolveHost,
  type UrlVetting,
  vetWebhookUrl,
  type WebhookEnvironment,
} from '../platform/net/ssrf-guard.ts';
export {
  type AutomaticDecisionEventInput,
  buildWebhookPayload,
  type DecisionEventInput,
  type ExpiredEventInput,
  eventForStatus,
  InvalidWebhookPayloadError,
  type ReviewOutcomeEventInput,
  serializeWebhookPayload,
} from './build-webhook-payload.ts';
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
  type DecisionEventRecord,
  recordDecisionEvent,
  WebhookEventSessionError,
} from './record-decision-event.ts';
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
export { webhookOperations, webhookPayloadComponents } from './webhook-openapi.ts';
export {
  DECISION_REASON_CODES,
  DecisionMetadataSchema,
  type DecisionReasonCode,
  EXPIRED_EVENT,
  FaceMatchSchema,
  FraudSignalAnalysisSchema,
  OcrResultSchema,
  publishedWebhookPayloadSchema,
  SpoofCheckSchema,
  WEBHOOK_EVENTS,
  WEBHOOK_PAYLOAD_SCHEMA_ID,
  type WebhookEvent,
  type WebhookPayload,
  WebhookPayloadSchema,
} from './webhook-payload.schema.ts';

// @mimoto/node: the mimoto identity verification API for Node.js servers.
export {
  type ImageKind,
  type ListSessionsParams,
  Mimoto,
  type MimotoOptions,
  type SessionSummary,
  Sessions,
} from './client.js';
export { isApiError, MimotoApiError, MimotoConnectionError, MimotoError } from './errors.js';
export type * from './types.gen.js';
export {
  isKnownEvent,
  KNOWN_WEBHOOK_EVENTS,
  type KnownWebhookEvent,
  type UnknownWebhookEvent,
  verify as verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
  webhooks,
} from './webhooks.js';

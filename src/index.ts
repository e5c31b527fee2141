// The package's public entry (package.json exports "."): what a tenant's code may import.
export { verifyWebhookSignature } from './webhooks/index.ts';

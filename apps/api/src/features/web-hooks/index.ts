/**
 * The web-hooks area's public entry: what other features may import from it (decision 168). Each
 * line says who uses it and why; a repository or service named here is an allowed crossing.
 */
// Pay's settlement records its moves' web hook events.
export { createPaymentMoveEvents } from './payment-move-events.js';
// Every area whose records change writes its web hook events in the change's transaction.
export {
  recordWebhookEvent,
  recordWebhookEvents,
  insertWebhookEventsFrom,
  type WebHookEventInput,
} from './web-hook-events.repository.js';
export type { WebHooksLends } from './web-hooks.area.js';

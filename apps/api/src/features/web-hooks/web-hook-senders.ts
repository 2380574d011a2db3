import { Webhook } from 'standardwebhooks';
import type { Database } from '../../db/client.js';
import type { SecretBox } from '../../platform/secrets.js';
import { postWebHook, type PostResult } from './safe-http.js';
import { svixAppUid, type SvixClient } from './svix-client.js';
import type { DueDelivery } from './web-hooks-delivery.repository.js';
import type { WebHookDeliveryOptions } from './web-hooks.delivery.js';
import { companyName } from './web-hooks.repository.js';

/** What a receiver gets (contract webHookEventSchema): the same through Svix and embedded delivery. */
export function envelopeOf(
  row: Pick<
    DueDelivery,
    'event_id' | 'type' | 'created_on' | 'tenant_id' | 'dataset_id' | 'payload'
  >,
) {
  return {
    id: row.event_id,
    type: row.type,
    timestamp: new Date(row.created_on).toISOString(),
    tenantId: row.tenant_id,
    datasetId: Number(row.dataset_id),
    data: row.payload,
  };
}

/** Sends to the company's Svix application, made on first use (once per process). */
export function createSvixSender(database: Database, svix: SvixClient) {
  const svixApps = new Set<string>();
  return async function sendToSvix(row: DueDelivery): Promise<PostResult> {
    const started = performance.now();
    const scope = { tenantId: row.tenant_id, datasetId: Number(row.dataset_id) };
    const uid = svixAppUid(scope);
    try {
      if (!svixApps.has(uid)) {
        const name = await companyName(database.db, scope);
        await svix.getOrCreateApplication({ uid, name: name ?? uid });
        svixApps.add(uid);
      }
      const sent = await svix.createMessage(uid, {
        eventType: row.type,
        eventId: row.event_id,
        payload: envelopeOf(row),
      });
      return {
        statusCode: sent.statusCode,
        durationMs: Math.round(performance.now() - started),
        error: null,
      };
    } catch (error) {
      const statusCode = (error as { statusCode?: number | null }).statusCode ?? null;
      return {
        statusCode,
        durationMs: Math.round(performance.now() - started),
        error: (error as Error).message,
      };
    }
  };
}

/** Posts to the endpoint itself, signed with its secret (Standard Webhooks). */
export function sendToEndpoint(
  row: DueDelivery,
  secrets: SecretBox,
  options: WebHookDeliveryOptions,
): Promise<PostResult> {
  const body = JSON.stringify(envelopeOf(row));
  const now = new Date();
  const signature = new Webhook(secrets.open(row.secret!)).sign(row.event_id, now, body);
  return postWebHook(
    row.url!,
    body,
    {
      'content-type': 'application/json',
      'user-agent': 'Ledgerline-Webhooks/1.0',
      'webhook-id': row.event_id,
      'webhook-timestamp': Math.floor(now.getTime() / 1000).toString(),
      'webhook-signature': signature,
    },
    {
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      allowedPorts: options.allowedPorts,
      ownAddresses: options.ownAddresses,
    },
  );
}

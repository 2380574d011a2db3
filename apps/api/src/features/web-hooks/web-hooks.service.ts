import { randomBytes } from 'node:crypto';
import {
  webHookMessages as m,
  type QuerySearch,
  type SvixDashboardAccess,
  type webHookEndpointBody,
} from '@ledgerline/contract';
import type { z } from 'zod';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secrets.js';
import { svixAppUid, SvixError, type SvixClient } from './svix-client.js';
import type { DatasetScope } from '../../platform/scope.js';
import { checkEndpointUrl, type EndpointUrlRules } from './endpoint-url.js';
import { disableEndpoint } from './web-hooks-delivery.repository.js';
import { companyName, type WebHooksRepository } from './web-hooks.repository.js';

type EndpointInput = z.output<typeof webHookEndpointBody>;

/** A Standard Webhooks signing secret: whsec_ and 32 random bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** spec 3 §7 integrations/svix/dashboard-access: the portal of the company's Svix application. */
async function svixDashboardAccess(
  svix: SvixConnection | null,
  tx: Tx,
  scope: DatasetScope,
): Promise<SvixDashboardAccess> {
  if (!svix) return { mode: 'Embedded', url: null, frameable: false };
  const name = await companyName(tx, scope);
  const uid = svixAppUid(scope);
  try {
    await svix.client.getOrCreateApplication({ uid, name: name ?? uid });
    const access = await svix.client.appPortalAccess(uid);
    return { mode: 'Svix', url: access.url, frameable: !svix.selfHosted };
  } catch (error) {
    if (error instanceof SvixError) {
      throw new AppError(
        502,
        'Bad Gateway',
        `Svix did not give access to the portal: ${error.message}`,
      );
    }
    throw error;
  }
}

/** An endpoint's stored values from the form (each event type once). */
const values = (input: EndpointInput) => ({
  url: input.url,
  description: input.description,
  eventTypes: [...new Set(input.eventTypes)],
  disabled: input.disabled,
});

type SvixConnection = { client: SvixClient; selfHosted: boolean };

/**
 * The web hooks page's rules: with Svix configured the endpoints live in Svix and the
 * page frames its portal; without it the company's endpoints are managed here.
 */
export function createWebHooksService(
  deps: {
    repository: WebHooksRepository;
    secrets: SecretBox;
    svix: SvixConnection | null;
  } & EndpointUrlRules,
) {
  const { repository, secrets, svix } = deps;
  const checkUrl = (url: string) => checkEndpointUrl(url, deps);

  async function found(tx: Tx, scope: DatasetScope, id: string) {
    const row = await repository.find(tx, scope, id);
    if (!row) throw new NotFoundError(m.endpointNotFound);
    return row;
  }

  return {
    list(tx: Tx, scope: DatasetScope, search?: QuerySearch) {
      return repository.list(tx, scope, search);
    },

    async get(tx: Tx, scope: DatasetScope, id: string) {
      return repository.toEndpoint(await found(tx, scope, id));
    },

    async create(tx: Tx, scope: DatasetScope, input: EndpointInput) {
      if (svix) throw new ConflictError(m.managedBySvix, 'managedBySvix');
      checkUrl(input.url);
      return repository.insert(tx, scope, uuidv7(), {
        ...values(input),
        secret: secrets.seal(newSigningSecret()),
      });
    },

    async update(tx: Tx, scope: DatasetScope, id: string, input: EndpointInput) {
      const before = await found(tx, scope, id);
      checkUrl(input.url);
      // Switching off fails what waits for the endpoint (resend brings a delivery back).
      if (input.disabled && !before.disabled) {
        await disableEndpoint(tx, scope, id, 'Switched off by a user.');
      }
      return (await repository.update(tx, scope, id, values(input)))!;
    },

    async remove(tx: Tx, scope: DatasetScope, id: string) {
      if (!(await repository.remove(tx, scope, id))) throw new NotFoundError(m.endpointNotFound);
    },

    async secret(tx: Tx, scope: DatasetScope, id: string) {
      return { secret: secrets.open((await found(tx, scope, id)).secret) };
    },

    /** A new secret from now on; deliveries already signed keep the old one. */
    async rotateSecret(tx: Tx, scope: DatasetScope, id: string) {
      await found(tx, scope, id);
      const secret = newSigningSecret();
      await repository.setSecret(tx, scope, id, secrets.seal(secret));
      return { secret };
    },

    async deliveries(
      tx: Tx,
      scope: DatasetScope,
      id: string,
      page: { page: number; itemsPerPage: number },
    ) {
      await found(tx, scope, id);
      return repository.deliveries(tx, scope, id, page);
    },

    async resend(tx: Tx, scope: DatasetScope, deliveryId: string) {
      const delivery = await repository.resend(tx, scope, deliveryId);
      if (!delivery) throw new NotFoundError(m.deliveryNotFound);
      return delivery;
    },

    /** spec 3 §7 integrations/svix/dashboard-access: the portal of the company's Svix application. */
    dashboardAccess: (tx: Tx, scope: DatasetScope) => svixDashboardAccess(svix, tx, scope),
  };
}
export type WebHooksService = ReturnType<typeof createWebHooksService>;

import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { and, eq } from 'drizzle-orm';
import {
  webHookMessages as m,
  type QuerySearch,
  type SvixDashboardAccess,
  type webHookEndpointBody,
} from '@ledgerline/contract';
import type { z } from 'zod';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { datasets } from '../../db/schema.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secrets.js';
import { hostKey, isForbiddenAddress, loopbackHosts, portOf } from './safe-http.js';
import { svixAppUid, SvixError, type SvixClient } from './svix-client.js';
import type { WebHookScope } from './web-hook-events.js';
import { disableEndpoint } from './web-hooks.delivery.js';
import type { WebHooksRepository } from './web-hooks.repository.js';

type EndpointInput = z.output<typeof webHookEndpointBody>;

/** A Standard Webhooks signing secret: whsec_ and 32 random bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The web hooks page's rules (issue 15): with Svix configured the endpoints live in Svix and the
 * page frames its portal; without it the company's endpoints are managed here.
 */
export function createWebHooksService(deps: {
  repository: WebHooksRepository;
  secrets: SecretBox;
  svix: { client: SvixClient; selfHosted: boolean } | null;
  /** http:// to this computer is accepted outside production (development, tests). */
  allowLoopbackHttp: boolean;
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_PORTS; null: any. */
  allowedPorts: readonly number[] | null;
  /** Ledgerline's own address: its host is never a web hook's. */
  publicUrl: string;
}) {
  const ownHost = hostKey(new URL(deps.publicUrl).hostname);
  const { repository, secrets, svix } = deps;

  function embeddedOnly() {
    if (svix) throw new ConflictError(m.managedBySvix, 'managedBySvix');
  }

  /**
   * https only (http to loopback outside production); never a private address unless allowed,
   * never Ledgerline's own host, only the allowed ports (issue 20 item 12).
   */
  function checkUrl(value: string) {
    const url = new URL(value);
    const host = hostKey(url.hostname);
    const loopback = loopbackHosts.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
    if (
      url.protocol !== 'https:' &&
      !(url.protocol === 'http:' && loopback && deps.allowLoopbackHttp)
    ) {
      throw new ValidationError({ url: [m.urlHttps] }, m.urlHttps);
    }
    // Names are checked again where it counts, at connect time (safe-http.ts).
    if (!deps.allowPrivate && (host === 'localhost' || (isIP(host) && isForbiddenAddress(host)))) {
      throw new ValidationError({ url: [m.urlPrivate] }, m.urlPrivate);
    }
    if (host === ownHost) throw new ValidationError({ url: [m.urlOwnHost] }, m.urlOwnHost);
    if (deps.allowedPorts && !deps.allowedPorts.includes(portOf(url))) {
      throw new ValidationError({ url: [m.urlPort] }, m.urlPort);
    }
  }

  async function found(tx: Tx, scope: WebHookScope, id: string) {
    const row = await repository.find(tx, scope, id);
    if (!row) throw new NotFoundError(m.endpointNotFound);
    return row;
  }

  const values = (input: EndpointInput) => ({
    url: input.url,
    description: input.description,
    eventTypes: [...new Set(input.eventTypes)],
    disabled: input.disabled,
  });

  return {
    list(tx: Tx, scope: WebHookScope, search?: QuerySearch) {
      return repository.list(tx, scope, search);
    },

    async get(tx: Tx, scope: WebHookScope, id: string) {
      return repository.toEndpoint(await found(tx, scope, id));
    },

    async create(tx: Tx, scope: WebHookScope, input: EndpointInput) {
      embeddedOnly();
      checkUrl(input.url);
      return repository.insert(tx, scope, uuidv7(), {
        ...values(input),
        secret: secrets.seal(newSigningSecret()),
      });
    },

    async update(tx: Tx, scope: WebHookScope, id: string, input: EndpointInput) {
      const before = await found(tx, scope, id);
      checkUrl(input.url);
      // Switching off fails what waits for the endpoint (resend brings a delivery back).
      if (input.disabled && !before.disabled) {
        await disableEndpoint(tx, scope.tenantId, scope.datasetId, id, 'Switched off by a user.');
      }
      return (await repository.update(tx, scope, id, values(input)))!;
    },

    async remove(tx: Tx, scope: WebHookScope, id: string) {
      if (!(await repository.remove(tx, scope, id))) throw new NotFoundError(m.endpointNotFound);
    },

    async secret(tx: Tx, scope: WebHookScope, id: string) {
      return { secret: secrets.open((await found(tx, scope, id)).secret) };
    },

    /** A new secret from now on; deliveries already signed keep the old one. */
    async rotateSecret(tx: Tx, scope: WebHookScope, id: string) {
      await found(tx, scope, id);
      const secret = newSigningSecret();
      await repository.setSecret(tx, scope, id, secrets.seal(secret));
      return { secret };
    },

    async deliveries(
      tx: Tx,
      scope: WebHookScope,
      id: string,
      page: { page: number; itemsPerPage: number },
    ) {
      await found(tx, scope, id);
      return repository.deliveries(tx, scope, id, page);
    },

    async resend(tx: Tx, scope: WebHookScope, deliveryId: string) {
      const delivery = await repository.resend(tx, scope, deliveryId);
      if (!delivery) throw new NotFoundError(m.deliveryNotFound);
      return delivery;
    },

    /** spec 3 §7 integrations/svix/dashboard-access: the portal of the company's Svix application. */
    async dashboardAccess(tx: Tx, scope: WebHookScope): Promise<SvixDashboardAccess> {
      if (!svix) return { mode: 'Embedded', url: null, frameable: false };
      const [company] = await tx
        .select({ name: datasets.name })
        .from(datasets)
        .where(and(eq(datasets.tenantId, scope.tenantId), eq(datasets.id, scope.datasetId)));
      const uid = svixAppUid(scope);
      try {
        await svix.client.getOrCreateApplication({ uid, name: company?.name ?? uid });
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
    },
  };
}
export type WebHooksService = ReturnType<typeof createWebHooksService>;

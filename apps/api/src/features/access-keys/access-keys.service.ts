import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  messages,
  type AccessKey,
  type CreatedAccessKey,
  type QuerySearch,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { datasets } from '../../db/schema.js';
import { sha256 } from '../../platform/crypto.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { AccessKeysRepository, KeyKind } from './access-keys.repository.js';
import { inTenant } from '../../platform/scope.js';

/** Shown before the dots in lists (spec 1 §2.8); long enough to tell keys apart, useless to guess. */
const prefixLength = 10;

export function generateKey(): { value: string; prefix: string; hash: string } {
  const value = `llk_${randomBytes(32).toString('base64url')}`;
  return { value, prefix: value.slice(0, prefixLength), hash: sha256(value) };
}

export interface KeyScope {
  tenantId: string;
  userId: string | null;
}

export function createAccessKeysService(deps: {
  repository: AccessKeysRepository;
  maximum: number;
}) {
  const { repository, maximum } = deps;
  const notFound = () => new NotFoundError('The key was not found.');

  return {
    maximum: () => maximum,
    list: (tx: Tx, scope: KeyScope, kind: KeyKind, search?: QuerySearch) =>
      repository.list(tx, scope.tenantId, kind, search),
    count: (tx: Tx, scope: KeyScope, kind: KeyKind) => repository.count(tx, scope.tenantId, kind),

    async get(tx: Tx, scope: KeyScope, kind: KeyKind, id: string): Promise<AccessKey> {
      const key = await repository.find(tx, scope.tenantId, kind, id);
      if (!key) throw notFound();
      return key;
    },

    async create(
      tx: Tx,
      scope: KeyScope,
      kind: KeyKind,
      input: { name: string; validUntil: string | null; datasetId: number | null },
    ): Promise<CreatedAccessKey> {
      // Serialise creates per tenant so two at once cannot both slip under the maximum.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`access-keys:${scope.tenantId}`}))`,
      );
      if ((await repository.count(tx, scope.tenantId, kind)) >= maximum) {
        throw new ConflictError(messages.accessKeyMaximumReached, 'maximumKeyCountReached');
      }
      if (input.datasetId !== null) {
        const [dataset] = await tx
          .select({ id: datasets.id })
          .from(datasets)
          .where(and(inTenant(datasets, scope), eq(datasets.id, input.datasetId)));
        if (!dataset) throw new NotFoundError(`Company ${input.datasetId} was not found.`);
      }
      const key = generateKey();
      const created = await repository.insert(tx, {
        tenantId: scope.tenantId,
        id: uuidv7(),
        kind,
        name: input.name,
        prefix: key.prefix,
        hash: key.hash,
        validUntil: input.validUntil ? new Date(input.validUntil) : null,
        datasetId: input.datasetId,
        createdBy: scope.userId,
      });
      return { ...created, accessKey: key.value };
    },

    async update(
      tx: Tx,
      scope: KeyScope,
      kind: KeyKind,
      id: string,
      input: { name: string; validUntil: string | null },
    ) {
      const updated = await repository.update(tx, scope.tenantId, kind, id, {
        name: input.name,
        validUntil: input.validUntil ? new Date(input.validUntil) : null,
      });
      if (!updated) throw notFound();
      return updated;
    },

    async remove(tx: Tx, scope: KeyScope, kind: KeyKind, id: string) {
      if (!(await repository.remove(tx, scope.tenantId, kind, id))) throw notFound();
    },
  };
}
export type AccessKeysService = ReturnType<typeof createAccessKeysService>;

import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { providerOAuthStates } from '../../db/schema-providers.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

/** The providers whose authorisation returns with a state the server issued. */
export type OAuthKind = 'Stripe' | 'GoCardless';

/** What an issued state is bound to: the caller (its session or access key) and the provider. */
export interface OAuthStateKey {
  owner: string;
  kind: OAuthKind;
  stateHash: string;
}

/** Keeps a new state's hash, bound to the caller and the company, for `lifetimeMinutes`. */
export async function insertOAuthState(
  tx: Tx,
  scope: DatasetScope,
  key: OAuthStateKey & { paymentProviderId: string | null; lifetimeMinutes: number },
): Promise<void> {
  await tx.insert(providerOAuthStates).values({
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
    id: uuidv7(),
    providerName: key.kind,
    paymentProviderId: key.paymentProviderId,
    owner: key.owner,
    stateHash: key.stateHash,
    expiresOn: sql`now() + make_interval(mins => ${key.lifetimeMinutes})`,
  });
}

const mine = (scope: DatasetScope, key: OAuthStateKey) =>
  and(
    inDataset(providerOAuthStates, scope),
    eq(providerOAuthStates.stateHash, key.stateHash),
    eq(providerOAuthStates.providerName, key.kind),
    eq(providerOAuthStates.owner, key.owner),
  );

/**
 * Marks the state used if it is this company's, this caller's, of this provider, unused and
 * unexpired (one UPDATE, so two returns cannot both pass); undefined when it is not.
 */
export async function spendOAuthState(
  tx: Tx,
  scope: DatasetScope,
  key: OAuthStateKey,
): Promise<{ paymentProviderId: string | null } | undefined> {
  const [spent] = await tx
    .update(providerOAuthStates)
    .set({ usedOn: sql`now()` })
    .where(
      and(
        mine(scope, key),
        isNull(providerOAuthStates.usedOn),
        gt(providerOAuthStates.expiresOn, sql`now()`),
      ),
    )
    .returning({ paymentProviderId: providerOAuthStates.paymentProviderId });
  return spent;
}

/** Whether the state was issued to this caller at all (spent or expired since). */
export async function oauthStateKnown(
  tx: Tx,
  scope: DatasetScope,
  key: OAuthStateKey,
): Promise<boolean> {
  const [known] = await tx
    .select({ id: providerOAuthStates.id })
    .from(providerOAuthStates)
    .where(mine(scope, key));
  return known !== undefined;
}

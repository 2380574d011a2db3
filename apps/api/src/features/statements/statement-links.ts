import { addExpiry } from '@ledgerline/contract';
import { and, eq } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Tx } from '../../db/client.js';
import { accounts } from '../../db/schema-receivables.js';
import { statementLinks } from '../../db/schema-statements.js';
import { readPaymentRequestSettings } from '../company-settings/index.js';
import { accountNotFound } from '../accounts/index.js';
import { inDataset } from '../../platform/scope.js';

/** The public path of a statement link: `<publicUrl>/statement/<token>`. */
export const statementPath = (token: string) => `/statement/${token}`;

/** A statement token: 32 random bytes, base64url (43 characters, no padding). */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** What is stored of a token: its SHA-256, hex (the token itself is never kept). */
export const hashStatementToken = (token: string) =>
  createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Issues a new statement link of one account: a random, unguessable token whose hash is
 * stored, expiring as the company's new payment request links do (company preferences' default
 * link expiry, counted from now; none set: the link does not expire). Runs inside the caller's
 * transaction (tenant-scoped); the account must belong to the scope (404 otherwise). The reminder
 * mails call it too, one link per account per run.
 */
export async function issueStatementLink(
  tx: Tx,
  scope: { tenantId: string; datasetId: string },
  accountId: string,
  publicUrl: string,
): Promise<{ url: string; expiresAt: Date | null }> {
  const datasetId = Number(scope.datasetId);
  const at = { tenantId: scope.tenantId, datasetId };
  const [account] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(inDataset(accounts, { tenantId: at.tenantId, datasetId }), eq(accounts.id, accountId)),
    )
    .limit(1);
  if (!account) throw accountNotFound(accountId);
  const { validUntilAddition } = await readPaymentRequestSettings(tx, at);
  const expiresAt = addExpiry(new Date(), validUntilAddition);
  const token = randomBytes(32).toString('base64url');
  await tx.insert(statementLinks).values({
    ...at,
    id: uuidv7(),
    accountId,
    tokenHash: hashStatementToken(token),
    expiresOn: expiresAt,
  });
  return { url: `${publicUrl.replace(/\/+$/, '')}${statementPath(token)}`, expiresAt };
}

/** A stored link found by its token: whose it is and until when it works. */
export interface FoundStatementLink {
  tenantId: string;
  datasetId: number;
  id: string;
  accountId: string;
  expiresOn: Date | null;
}

/**
 * The link of a token, read on an owner connection (the public page does not know the company
 * yet), or null when the token is malformed or unknown. Whether it expired is the caller's call.
 */
export async function findStatementLink(
  executor: Executor,
  token: string,
): Promise<FoundStatementLink | null> {
  if (!tokenPattern.test(token)) return null;
  const [found] = await executor
    .select({
      tenantId: statementLinks.tenantId,
      datasetId: statementLinks.datasetId,
      id: statementLinks.id,
      accountId: statementLinks.accountId,
      expiresOn: statementLinks.expiresOn,
    })
    .from(statementLinks)
    .where(eq(statementLinks.tokenHash, hashStatementToken(token)))
    .limit(1);
  return found ?? null;
}

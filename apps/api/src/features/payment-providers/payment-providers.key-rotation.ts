import type { Database } from '../../db/client.js';
import type { SecretBox } from '../../platform/secrets.js';
import { createPaymentProvidersRepository } from './payment-providers.repository.js';

/**
 * Re-seals every tenant's provider credentials from one key to another in one transaction on the
 * owner connection (the operator command `rotate-secrets-key`). Values already sealed with the new
 * key are left alone, so a rotation that stopped half-way can be run again.
 */
export async function rotateProviderSecrets(
  database: Database,
  from: SecretBox,
  to: SecretBox,
): Promise<{ resealed: number; alreadyNew: number }> {
  const repository = createPaymentProvidersRepository();
  return database.db.transaction(async (tx) => {
    let resealed = 0;
    let alreadyNew = 0;
    for (const row of await repository.allSealed(tx)) {
      if (row.credentialsSealed.split('.')[1] === to.keyId) {
        alreadyNew += 1;
        continue;
      }
      await repository.reseal(tx, row, row.id, to.seal(from.open(row.credentialsSealed)));
      resealed += 1;
    }
    return { resealed, alreadyNew };
  });
}

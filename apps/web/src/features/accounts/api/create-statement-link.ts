import { statementLinkSchema } from '@ledgerline/contract';
import { useMutation } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';

/** POST accounts/{id}/statement-link, a new link to the account's statement. */
export function createStatementLink(accountId: string) {
  return companyClient.post(
    `/accounts/${encodeURIComponent(accountId)}/statement-link`,
    undefined,
    {
      schema: statementLinkSchema,
    },
  );
}

export function useCreateStatementLink(accountId: string) {
  return useMutation({ mutationFn: () => createStatementLink(accountId) });
}

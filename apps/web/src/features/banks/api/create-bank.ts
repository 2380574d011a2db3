import { bankSchema, type Bank, type CreateBankBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { bankKeys } from './bank-keys';

/** spec 2 §7 POST banks (ERP connectors use it; no screen of the site creates banks yet). */
export function createBank(body: CreateBankBody): Promise<Bank> {
  return companyClient.post('/banks', body, { schema: bankSchema });
}

export function useCreateBank() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBank,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bankKeys().lists() }),
  });
}

import { bankSchema, type Bank, type UpdateBankBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { bankKeys } from './bank-keys';

/** spec 2 §7 PUT banks: the body carries the bank's id (no screen of the site edits banks yet). */
export function updateBank(body: UpdateBankBody): Promise<Bank> {
  return companyClient.put('/banks', body, { schema: bankSchema });
}

export function useUpdateBank() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBank,
    onSuccess: (bank) => {
      queryClient.setQueryData(bankKeys().detail(bank.id), bank);
      return queryClient.invalidateQueries({ queryKey: bankKeys().lists() });
    },
  });
}

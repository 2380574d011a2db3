import { paymentProviderLimits as limits } from '@ledgerline/contract';
import { Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ProviderFormValues } from './provider-form-values';

/** spec 3 §2 Bank details tab of the bank transfer provider (GBP only). */
export function BankDetailsTab({ form }: { form: UseFormReturnType<ProviderFormValues> }) {
  const digitsOnly = (path: string, length: number) => {
    const props = form.getInputProps(path);
    return {
      ...props,
      inputMode: 'numeric' as const,
      maxLength: length,
      onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
        form.setFieldValue(path, event.currentTarget.value.replace(/\D/g, '').slice(0, length)),
    };
  };
  return (
    <Stack gap="md" maw={720}>
      <TextInput
        label="Account Number"
        required
        {...digitsOnly('settings.beneficiaryBankAccount.accountNumber', limits.accountNumberDigits)}
      />
      <TextInput
        label="Sort Code"
        required
        {...digitsOnly('settings.beneficiaryBankAccount.sortCode', limits.sortCodeDigits)}
      />
      <TextInput
        label="Payees Name"
        required
        maxLength={limits.beneficiaryName.max}
        {...form.getInputProps('settings.beneficiaryName')}
      />
      <TextInput
        label="Payees Reference"
        required
        maxLength={limits.reference.max}
        description="The reference on your statement; {accountReference} stands for the customer's account reference."
        {...form.getInputProps('settings.beneficiaryReference')}
      />
      <TextInput
        label="Payees Reference"
        required
        maxLength={limits.reference.max}
        description="The reference on your customer's statement; {companyName} stands for your company name."
        {...form.getInputProps('settings.remitterReference')}
      />
      <Text size="sm" c="dimmed">
        Currency: GBP
      </Text>
    </Stack>
  );
}

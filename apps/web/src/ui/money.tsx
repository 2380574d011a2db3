import { formatMoney, type AmountInput } from './format';

interface MoneyProps {
  amount: AmountInput;
  currency: string | null | undefined;
  display?: 'symbol' | 'code';
}

/** An amount with its currency's own minor units; '-' when empty. */
export function Money({ amount, currency, display }: MoneyProps) {
  return <span>{formatMoney(amount, currency, { display })}</span>;
}

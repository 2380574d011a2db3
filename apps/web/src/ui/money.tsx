import { formatMoney, type AmountInput } from './money-format';

interface MoneyProps {
  amount: AmountInput;
  currency: string | null | undefined;
}

/** An amount as the whole site writes money (money-format.ts): £22,611.80; '-' when empty. */
export function Money({ amount, currency }: MoneyProps) {
  return <span>{formatMoney(amount, currency)}</span>;
}

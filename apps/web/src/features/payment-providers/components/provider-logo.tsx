import type { PaymentProviderName } from '@ledgerline/contract';
import { Avatar } from '@mantine/core';

/** Each kind's mark: its initials in its brand colour (no third-party artwork is shipped). */
const marks: Record<PaymentProviderName, { text: string; color: string }> = {
  TranSafe: { text: 'TS', color: 'indigo' },
  Opayo: { text: 'Op', color: 'teal' },
  TrueLayer: { text: 'TL', color: 'dark' },
  Oppwa: { text: 'TP', color: 'orange' },
  Stripe: { text: 'S', color: 'violet' },
  GoCardless: { text: 'GC', color: 'cyan' },
  Sandbox: { text: 'SB', color: 'gray' },
};

export function ProviderLogo({
  providerName,
  size = 40,
}: {
  providerName: PaymentProviderName;
  size?: number;
}) {
  const mark = marks[providerName];
  return (
    <Avatar size={size} radius="sm" color={mark.color} variant="filled" aria-hidden>
      {mark.text}
    </Avatar>
  );
}

import { Badge } from '@mantine/core';

export type StatusTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

const toneColors: Record<StatusTone, string> = {
  success: 'green',
  warning: 'yellow',
  danger: 'red',
  info: 'blue',
  neutral: 'gray',
};

interface StatusTagProps {
  label: string;
  tone?: StatusTone;
}

/** A status shown as a small coloured tag (payment, dataset, paid status...). */
export function StatusTag({ label, tone = 'neutral' }: StatusTagProps) {
  return (
    <Badge color={toneColors[tone]} variant="light" radius="sm">
      {label}
    </Badge>
  );
}

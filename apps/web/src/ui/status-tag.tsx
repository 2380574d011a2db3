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
  /** Words as written ('Refused: invalid input'), not the badge's capitals. */
  sentenceCase?: boolean;
  title?: string;
}

/** A status shown as a small coloured tag (payment, dataset, paid status...). */
export function StatusTag({ label, tone = 'neutral', sentenceCase = false, title }: StatusTagProps) {
  return (
    <Badge
      color={toneColors[tone]}
      variant="light"
      radius="sm"
      tt={sentenceCase ? 'none' : undefined}
      title={title}
    >
      {label}
    </Badge>
  );
}

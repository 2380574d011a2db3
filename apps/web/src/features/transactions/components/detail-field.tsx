import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled value of a detail card. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}

/** The text, or '-' when there is none. */
export function textOr(value: string | null | undefined): string {
  return value && value.trim() !== '' ? value : '-';
}

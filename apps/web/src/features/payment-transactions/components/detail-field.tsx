import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled value of a payment transaction's cards. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div" style={{ overflowWrap: 'anywhere' }}>
        {children ?? 'N/A'}
      </Text>
    </div>
  );
}

/** spec 2 §1: an empty text shows '-'. */
export function text(value: string | null | undefined) {
  return value && value.trim() !== '' ? value : '-';
}

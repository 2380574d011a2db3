import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { productName } from '@/ui/page-title';

/** The product mark (the drawing of public/favicon.svg) and name, linking home. */
export function Logo() {
  return (
    <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={productName}>
      <Group gap={8} wrap="nowrap">
        <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
          <path d="M10 7h4v14h9v4H10z" fill="#fff" />
        </svg>
        <Text fw={700} size="lg" visibleFrom="xs">
          {productName}
        </Text>
      </Group>
    </Anchor>
  );
}

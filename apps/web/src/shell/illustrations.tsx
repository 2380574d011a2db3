import { ThemeIcon } from '@mantine/core';
import { IconFileUnknown, IconLock } from '@tabler/icons-react';

export function NotFoundIllustration() {
  return (
    <ThemeIcon
      size={120}
      radius={120}
      variant="light"
      color="gray"
      role="img"
      aria-label="Page not found"
    >
      <IconFileUnknown size={64} stroke={1.3} />
    </ThemeIcon>
  );
}

export function ForbiddenIllustration() {
  return (
    <ThemeIcon
      size={120}
      radius={120}
      variant="light"
      color="red"
      role="img"
      aria-label="Access forbidden"
    >
      <IconLock size={64} stroke={1.3} />
    </ThemeIcon>
  );
}

import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { getWebsiteView } from '@/lib/embedded-view';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Buttons on the right ('Add User'). */
  actions?: ReactNode;
}

/** A page's heading, an optional introduction and its main actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
      <div>
        {/* spec 3 §2 embedded view: removeTitle leaves the page's title to the parent site. */}
        {!getWebsiteView()?.removeTitle && (
          <Title order={1} size="h2">
            {title}
          </Title>
        )}
        {description && (
          <Text c="dimmed" size="sm" mt={4} maw={760} component="div">
            {description}
          </Text>
        )}
      </div>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}

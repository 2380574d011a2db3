import type { TodoItem } from '@ledgerline/contract';
import { Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconInfoCircle,
  IconUrgent,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { usePermission } from '@/ui/use-permission';
import { useTodo } from '../api/get-to-do';

const severityIcon = {
  Informational: { color: 'blue', icon: IconInfoCircle },
  Warning: { color: 'yellow', icon: IconAlertTriangle },
  Critical: { color: 'red', icon: IconUrgent },
} as const;

function TodoRow({ item }: { item: TodoItem }) {
  const canFix = usePermission(item.requiredPermissionToFix ?? undefined);
  const { color, icon: Icon } = severityIcon[item.severity];
  return (
    <Group wrap="nowrap" align="flex-start" justify="space-between" data-testid={`todo-${item.id}`}>
      {/* The words give way and wrap, never the Fix button. */}
      <Group wrap="nowrap" align="flex-start" miw={0} style={{ flex: 1 }}>
        <ThemeIcon color={color} variant="light" role="img" aria-label={item.severity}>
          <Icon size={18} />
        </ThemeIcon>
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <Text fw={600}>{item.title}</Text>
          <Text size="sm" c="dimmed">
            {item.message}
          </Text>
        </div>
      </Group>
      {canFix && (
        <Button component={Link} to={item.url} size="xs" variant="light" style={{ flexShrink: 0 }}>
          Fix
        </Button>
      )}
    </Group>
  );
}

/** spec 1 §2.4 to-do panel: a placeholder while loading, a completed message when nothing is left. */
export function TodoPanel() {
  const { data, isPending } = useTodo();
  return (
    <Card withBorder>
      <Stack>
        <Title order={4}>To do</Title>
        {isPending ? (
          <Stack data-testid="todo-loading">
            <Skeleton h={40} />
            <Skeleton h={40} />
          </Stack>
        ) : !data || data.items.length === 0 ? (
          <Group>
            <IconCircleCheck color="var(--mantine-color-green-6)" />
            <Text>Everything is set up. Nothing left to do.</Text>
          </Group>
        ) : (
          data.items.map((item) => <TodoRow key={item.id} item={item} />)
        )}
      </Stack>
    </Card>
  );
}

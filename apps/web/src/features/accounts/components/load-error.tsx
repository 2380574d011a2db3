import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '@/lib/status-routing';

/** spec 2 §8: a detail page that fails to load shows 'Loading Error' and the reason. */
export function LoadError({
  error,
  backTo,
  backLabel,
}: {
  error: unknown;
  backTo: string;
  backLabel: string;
}) {
  return (
    <Stack gap="md" maw={640}>
      <Alert color="red" title="Loading Error" icon={<IconAlertTriangle size={18} />}>
        {errorMessage(error)}
      </Alert>
      <div>
        <Button
          component={Link}
          to={backTo}
          variant="light"
          leftSection={<IconArrowLeft size={16} />}
        >
          {backLabel}
        </Button>
      </div>
    </Stack>
  );
}

import { Center, Loader, Stack, Text } from '@mantine/core';
import { productName } from '@/ui/page-title';

/** spec 1 §2.3: the word Loading followed by the short product name. */
export function LoadingScreen({ inline = false }: { inline?: boolean }) {
  return (
    <Center h={inline ? 320 : '100vh'} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">Loading {productName}</Text>
      </Stack>
    </Center>
  );
}

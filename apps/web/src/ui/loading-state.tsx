import { Center, Loader, Stack, Text } from '@mantine/core';

/** A page's own loading state: a spinner and what is being loaded, announced politely. */
export function LoadingState({ label }: { label: string }) {
  return (
    <Center h={240} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}

import { Center, Text } from '@mantine/core';
import { usePageTitle } from '@/ui/page-title';

/** spec 1 §2.1 /health: the word Healthy, without sign-in. */
export function HealthRoute() {
  usePageTitle(['Health']);
  return (
    <Center h="100vh">
      <Text size="xl" fw={600}>
        Healthy
      </Text>
    </Center>
  );
}

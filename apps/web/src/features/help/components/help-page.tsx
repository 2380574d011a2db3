import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBook } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { guideOf, guides } from '../guides';
import { Markdown } from '../markdown';

/** /help: the user guide's contents. */
export function HelpPage() {
  return (
    <Stack>
      <Title order={2}>User guide</Title>
      <Text c="dimmed">Short guides to each part of Ledgerline.</Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {guides.map((guide) => (
          <Card key={guide.slug} withBorder component={Link} to={`/help/${guide.slug}`}>
            <Group gap="xs" wrap="nowrap">
              <IconBook size={18} />
              <Text fw={600}>{guide.title}</Text>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {guide.summary}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** /help/{slug}: one guide. */
export function GuidePage() {
  const { topic } = useParams();
  const guide = guideOf(topic);
  return (
    <Stack gap={0} maw={800}>
      <Anchor component={Link} to="/help" size="sm" mb="md">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          User guide
        </Group>
      </Anchor>
      {guide ? <Markdown source={guide.source} /> : <Text>There is no guide with this name.</Text>}
    </Stack>
  );
}

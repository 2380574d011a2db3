import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyButton } from '@/ui/copy-button';
import type { KeyKind } from '../api/key-kinds';
import { keyTexts } from './key-texts';

interface CreatedKeyDialogProps {
  kind: KeyKind;
  /** The full key of the creation answer; null when there is none to show. */
  secret: string | null;
  onClose: () => void;
}

/**
 * spec 1 §2.8: the full key, shown once after creation. Closing drops it: it is never shown
 * again (the server keeps only a hash).
 */
export function CreatedKeyDialog({ kind, secret, onClose }: CreatedKeyDialogProps) {
  const texts = keyTexts[kind];
  return (
    <Modal opened={secret !== null} onClose={onClose} title={texts.createdTitle} size="lg" centered>
      <Stack gap="md">
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Copy the key now">
          This is the only time the full {texts.noun} is shown. Copy it and keep it somewhere safe,
          such as a password manager or your ERP connector’s settings: once you close this dialog it
          cannot be shown again. If it is lost, delete it and create a new one.
        </Alert>
        <TextInput
          label={texts.keyLabel}
          value={secret ?? ''}
          readOnly
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          rightSection={<CopyButton value={secret ?? ''} label={texts.noun} />}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

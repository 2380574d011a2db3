import { Button, Group } from '@mantine/core';

/** A dialog form's foot: Cancel, then its submit button (Save unless named), busy while it saves. */
export function DialogActions({
  onCancel,
  loading,
  submitLabel = 'Save',
}: {
  onCancel: () => void;
  loading: boolean;
  submitLabel?: string;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={loading}>
        {submitLabel}
      </Button>
    </Group>
  );
}

import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconSearchOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { uuidPattern } from '@ledgerline/contract';
import { isApiError } from '@/lib/http';
import { errorMessage } from '@/lib/status-routing';

/** Record ids are UUIDs (design §3); anything else in a detail path names no record. */
export function isRecordId(id: string): boolean {
  return uuidPattern.test(id);
}

/**
 * A detail load that found nothing: 404, or a 400 for an id the server cannot read (a detail
 * call's only input is its id), which the merchant sees as the same thing.
 */
export function isNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 400);
}

interface DetailLoadErrorProps {
  /** What the page shows, in words: 'payment request', 'bank'. */
  record: string;
  /** The load's error; null when the path's id is not a record id at all. */
  error: unknown;
  backTo: string;
  backLabel: string;
}

/**
 * spec 2 §8: a detail page's own error state, the same on every detail page:
 * 'The <record> was not found.' for a missing record or a malformed id, the failure otherwise,
 * with a way back to the list.
 */
export function DetailLoadError({ record, error, backTo, backLabel }: DetailLoadErrorProps) {
  const notFound = error === null || isNotFound(error);
  return (
    <Stack gap="md" maw={640}>
      {notFound ? (
        <Alert color="gray" title="Not found" icon={<IconSearchOff size={18} />}>
          {`The ${record} was not found.`}
        </Alert>
      ) : (
        <Alert color="red" title="Loading Error" icon={<IconAlertTriangle size={18} />}>
          {errorMessage(error)}
        </Alert>
      )}
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

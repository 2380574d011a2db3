import type { ImportResult } from '@ledgerline/contract';
import { Alert, Button, FileInput, Group, Modal, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { failureMessage } from '@/ui/form-errors';
import { useImportAllocatedStatuses } from '../api/import-allocated-statuses';

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} size="lg">
        {value.toLocaleString('en-GB')}
      </Text>
    </div>
  );
}

/** Shows the rows that need a look first; all of them when the file was small. */
const shownRows = 200;

function ImportResultView({ result }: { result: ImportResult }) {
  const rows = [...result.results].sort((a, b) => (a.resultStatus === 'Ok' ? 1 : 0) - (b.resultStatus === 'Ok' ? 1 : 0)).slice(0, shownRows);
  return (
    <Stack>
      <SimpleGrid cols={4}>
        <Count label="Processed" value={result.processedCount} />
        <Count label="Imported" value={result.importedCount} />
        <Count label="Not imported" value={result.notImportedCount} />
        <Count label="Duplicated" value={result.duplicatedCount} />
      </SimpleGrid>
      <Table.ScrollContainer minWidth={600} mah={320}>
        <Table striped aria-label="Import results">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              <Table.Th>Id</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Import status</Table.Th>
              <Table.Th>Message</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.line}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.id}</Table.Td>
                <Table.Td c={row.resultStatus === 'Error' ? 'red' : row.resultStatus === 'Warning' ? 'orange' : undefined}>{row.resultStatus}</Table.Td>
                <Table.Td>{row.importStatus}</Table.Td>
                <Table.Td>{row.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {result.results.length > shownRows && (
        <Text size="xs" c="dimmed">
          The first {shownRows} of {result.results.length.toLocaleString('en-GB')} rows, errors and warnings first.
        </Text>
      )}
    </Stack>
  );
}

/** spec 2 §2 Import dialog: upload a file of allocated statuses, then show the result. */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const { mutate, isPending, error, reset } = useImportAllocatedStatuses();

  function close() {
    setFile(null);
    setResult(null);
    reset();
    onClose();
  }

  function submit() {
    if (!file) return;
    mutate(file, {
      onSuccess: (answer) => {
        setResult(answer);
        notifications.show({ color: 'green', message: `Imported ${answer.importedCount} of ${answer.processedCount} rows` });
      },
    });
  }

  return (
    <Modal opened={opened} onClose={close} title="Import allocated statuses" size={result ? 'xl' : 'md'} centered>
      {result ? (
        <Stack>
          <ImportResultView result={result} />
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            A CSV file with the columns PaymentTransactionId and AllocatedStatus; other columns are ignored, so an export
            can come back with its statuses edited.
          </Text>
          <FileInput label="File" placeholder="Choose a CSV file" accept=".csv,text/csv" value={file} onChange={setFile} clearable />
          {error && <Alert color="red">{failureMessage('The import failed: ', error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={submit} loading={isPending} disabled={!file}>
              Import
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

import {
  allocatedStatuses,
  importLimits,
  importTemplate,
  type ImportResult,
} from '@ledgerline/contract';
import {
  Alert,
  Anchor,
  Button,
  Code,
  FileInput,
  Group,
  List,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { failureMessage } from '@/ui/form-errors';
import { spaceWords } from '@/ui/words';
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
  const rows = [...result.results]
    .sort((a, b) => (a.resultStatus === 'Ok' ? 1 : 0) - (b.resultStatus === 'Ok' ? 1 : 0))
    .slice(0, shownRows);
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
                <Table.Td
                  c={
                    row.resultStatus === 'Error'
                      ? 'red'
                      : row.resultStatus === 'Warning'
                        ? 'orange'
                        : undefined
                  }
                >
                  {row.resultStatus}
                </Table.Td>
                <Table.Td>{row.importStatus}</Table.Td>
                <Table.Td>{row.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {result.results.length > shownRows && (
        <Text size="xs" c="dimmed">
          The first {shownRows} of {result.results.length.toLocaleString('en-GB')} rows, errors and
          warnings first.
        </Text>
      )}
    </Stack>
  );
}

/**
 * What the file must hold, in words, with a template to start from: the columns,
 * the statuses written as the file writes them, and the limits.
 */
function ImportColumns() {
  return (
    <Stack gap="xs">
      <Text size="sm">
        A CSV file whose first row names its columns. Two columns are read; any others are ignored,
        so a payment export can come back with its statuses edited.
      </Text>
      <Table withTableBorder fz="sm" aria-label="Import file columns">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Column</Table.Th>
            <Table.Th>What it holds</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>
              <Code>PaymentTransactionId</Code>
            </Table.Td>
            <Table.Td>
              The payment&apos;s id, as the export writes it (a column named <Code>Id</Code> is read
              too).
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>
              <Code>AllocatedStatus</Code>
            </Table.Td>
            <Table.Td>
              The payment&apos;s new allocated status, written as one of:
              <List size="sm" spacing={0}>
                {allocatedStatuses.map((status) => (
                  <List.Item key={status}>
                    <Code>{status}</Code> ({spaceWords(status).toLowerCase()})
                  </List.Item>
                ))}
              </List>
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        At most {importLimits.maxRows.toLocaleString('en-GB')} rows and{' '}
        {importLimits.maxBytes / 1024 / 1024} MB. A payment named twice takes its first row&apos;s
        status.
      </Text>
      <Anchor
        size="sm"
        href={`data:text/csv;charset=utf-8,${encodeURIComponent(importTemplate.text)}`}
        download={importTemplate.fileName}
      >
        <Group gap={4} component="span" display="inline-flex">
          <IconDownload size={16} aria-hidden />
          Download the CSV template
        </Group>
      </Anchor>
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
        notifications.show({
          color: 'green',
          message: `Imported ${answer.importedCount} of ${answer.processedCount} rows`,
        });
      },
    });
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Import allocated statuses"
      size={result ? 'xl' : 'lg'}
      centered
    >
      {result ? (
        <Stack>
          <ImportResultView result={result} />
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <ImportColumns />
          <FileInput
            label="File"
            placeholder="Choose a CSV file"
            accept=".csv,text/csv"
            value={file}
            onChange={setFile}
            clearable
          />
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

import {
  documentLimits,
  documentMessages,
  type TransactionDetail,
  type TransactionDocument,
} from '@ledgerline/contract';
import { Anchor, Button, FileButton, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { IconDownload } from '@tabler/icons-react';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { DateTime } from '@/ui/date-time';
import { saveBlob } from '@/ui/download';
import { failureMessage } from '@/ui/form-errors';
import { usePermission } from '@/ui/use-permission';
import { useDeleteDocument } from '../api/delete-document';
import { getDocumentData } from '../api/get-document-data';
import { useUploadDocument } from '../api/upload-document';
import { formatFileSize } from './file-size';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

/** spec 2 §7: "file name from the content-disposition header, default document.pdf". */
const defaultFileName = 'document.pdf';

interface ViewedDocument {
  name: string;
  url: string;
  blob: Blob;
}

function PdfViewer({ viewed, onClose }: { viewed: ViewedDocument | null; onClose: () => void }) {
  useEffect(() => () => (viewed ? URL.revokeObjectURL(viewed.url) : undefined), [viewed]);
  return (
    <Modal opened={viewed !== null} onClose={onClose} title={viewed?.name} size="xl" centered>
      {viewed && (
        <Stack gap="sm">
          <iframe
            src={viewed.url}
            title={viewed.name}
            style={{ width: '100%', height: '70vh', border: 0 }}
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => saveBlob(viewed.blob, viewed.name)}
            >
              Download
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** spec 2 §2 Documents: upload, open (a PDF in a viewer, other types download), delete. */
export function DocumentsTab({ transaction }: { transaction: TransactionDetail }) {
  const canUpload = usePermission('UploadTransactionDocument');
  const canDelete = usePermission('DeleteTransactionDocument');
  const upload = useUploadDocument(transaction.id);
  const remove = useDeleteDocument(transaction.id);
  const [viewed, setViewed] = useState<ViewedDocument | null>(null);

  const onFile = (file: File | null) => {
    if (!file) return;
    // Refused before it is sent, not after 10 MB have gone up.
    if (file.size > documentLimits.maxBytes) {
      notifications.show({
        color: 'red',
        message: `An error occurred while uploading the document: ${documentMessages.fileTooLarge}`,
      });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => notifications.show({ color: 'green', message: 'Document uploaded' }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          message: failureMessage('An error occurred while uploading the document: ', error),
        }),
    });
  };

  const fetchDocument = async (
    doc: TransactionDocument,
  ): Promise<{ blob: Blob; name: string } | null> => {
    try {
      const file = await getDocumentData(transaction.id, doc.id);
      return { blob: file.blob, name: file.fileName ?? defaultFileName };
    } catch (error) {
      notifications.show({
        color: 'red',
        message: failureMessage('An error occurred while loading the document: ', error),
      });
      return null;
    }
  };

  // spec 2 §2: a PDF opens in the viewer, other types download.
  const open = async (doc: TransactionDocument) => {
    const file = await fetchDocument(doc);
    if (!file) return;
    if (doc.fileType === 'application/pdf') {
      setViewed({ name: file.name, url: URL.createObjectURL(file.blob), blob: file.blob });
    } else saveBlob(file.blob, file.name);
  };

  // Every document can be saved, a PDF too (the viewer is not the only way).
  const download = async (doc: TransactionDocument) => {
    const file = await fetchDocument(doc);
    if (file) saveBlob(file.blob, file.name);
  };

  const confirmDelete = (doc: TransactionDocument) =>
    confirmDestructive({
      title: 'Delete Document',
      message: `Are you sure you want to delete the document ${doc.fileName}?`,
      onConfirm: () =>
        remove.mutate(doc.id, {
          onSuccess: () => notifications.show({ color: 'green', message: 'Document deleted' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage('An error occurred while deleting the document: ', error),
            }),
        }),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          PDF, images, Office files or text, up to 10 MB.
        </Text>
        <FileButton onChange={onFile} disabled={!canUpload}>
          {(props) => (
            <Button {...props} disabled={!canUpload} loading={upload.isPending}>
              Upload
            </Button>
          )}
        </FileButton>
      </Group>
      {transaction.documents.length === 0 ? (
        <EmptyState message="No documents" />
      ) : (
        <WideTable>
          <Table striped aria-label="Documents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Uploaded</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transaction.documents.map((doc) => (
                <Table.Tr key={doc.id}>
                  <Table.Td>
                    <Anchor component="button" type="button" onClick={() => void open(doc)}>
                      {doc.fileName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{doc.fileType}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatFileSize(doc.fileSize)}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <DateTime value={doc.createdOn} />
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end" gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => void download(doc)}
                        aria-label={`Download ${doc.fileName}`}
                      >
                        Download
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        disabled={!canDelete}
                        onClick={() => confirmDelete(doc)}
                        aria-label={`Delete ${doc.fileName}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </WideTable>
      )}
      <PdfViewer viewed={viewed} onClose={() => setViewed(null)} />
    </Stack>
  );
}

import { logoExtensions, logoFileProblem, logoTypes } from '@ledgerline/contract';
import { Button, Card, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useCompanyLogo, useCompanySettings } from '@/lib/api/get-company-settings';
import { isApiError } from '@/lib/http';
import { failureMessage } from '@/ui/form-errors';
import { confirmDestructive } from '@/ui/confirm-dialog';
import { PageHeader } from '@/ui/page-header';
import { useDeleteLogo } from '../api/delete-logo';
import { useUploadLogo } from '../api/upload-logo';

/** Uploading a chosen logo, checked first in the browser; the rule it breaks, if any. */
function useLogoUpload() {
  const upload = useUploadLogo();
  // spec 1 §5: the file's rule broken, shown under the upload button.
  const [fileError, setFileError] = useState<string | null>(null);

  const choose = (file: File | null) => {
    if (!file) return;
    const problem = logoFileProblem(file);
    setFileError(problem);
    // Checked before uploading: a refused file never leaves the browser.
    if (problem) return;
    upload.mutate(file, {
      onSuccess: () =>
        notifications.show({ color: 'green', message: 'Logo successfully uploaded' }),
      onError: (error) => {
        const serverProblem = isApiError(error) ? error.fieldErrors.imageFile?.[0] : undefined;
        if (serverProblem) setFileError(serverProblem);
        notifications.show({
          color: 'red',
          message: failureMessage('An error occurred while uploading the logo: ', error),
        });
      },
    });
  };
  return { upload, choose, fileError };
}

/** spec 3 §2 /settings/customisation: the upload starts when a file is chosen; clearing asks first. */
export function CustomisationPage() {
  const { data: settings } = useCompanySettings();
  const logo = useCompanyLogo();
  const remove = useDeleteLogo();
  const { upload, choose, fileError } = useLogoUpload();
  const clear = () =>
    confirmDestructive({
      title: 'Clear Logo',
      message: 'Remove the company logo? It will no longer appear in the header or in e-mails.',
      confirmLabel: 'Clear',
      onConfirm: () =>
        remove.mutate(undefined, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: 'Logo successfully cleared' }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: failureMessage('An error occurred while clearing the logo: ', error),
            }),
        }),
    });

  return (
    <Stack>
      <PageHeader
        title="Customisation"
        description="Your logo appears in the header and in every e-mail Ledgerline sends for you."
      />
      <Card withBorder>
        <Stack>
          {logo ? (
            <Image src={logo} alt="Current logo" h={96} w="auto" fit="contain" />
          ) : (
            <Text c="dimmed">No logo uploaded.</Text>
          )}
          <Text size="sm" c="dimmed">
            JPG, JPEG, PNG or SVG, from 50 bytes to 4 MB.
          </Text>
          <Group>
            <FileButton
              onChange={choose}
              accept={[...logoTypes, ...logoExtensions.map((extension) => `.${extension}`)].join(
                ',',
              )}
            >
              {(props) => (
                <Button
                  {...props}
                  leftSection={<IconUpload size={16} />}
                  loading={upload.isPending}
                >
                  Upload logo
                </Button>
              )}
            </FileButton>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              disabled={!settings?.logoUrl}
              loading={remove.isPending}
              onClick={clear}
            >
              Clear logo
            </Button>
          </Group>
          {fileError && <Input.Error>{fileError}</Input.Error>}
        </Stack>
      </Card>
    </Stack>
  );
}

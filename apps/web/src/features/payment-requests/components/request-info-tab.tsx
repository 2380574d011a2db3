import type { Contact, PaymentRequest } from '@ledgerline/contract';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconQrcode } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { CopyButton } from '@/ui/copy-button';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { StatusTag } from '@/ui/status-tag';
import { spaceWords } from '@/ui/words';
import { EditContactDialog, type ContactKind } from './edit-contact-dialog';
import { EditDetailsDialog } from './edit-details-dialog';
import { QrCodeDialog } from './qr-code-dialog';
import { RequestTimeline } from './request-timeline';
import { dayOfIso, requestStatusTone, shownUsage } from './request-texts';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}
const text = (value: string | null | undefined) => (value && value.trim() !== '' ? value : '-');
/** A valid-from or valid-to: its day, the same in every time zone (dayOfIso). */
const date = (value: string | null) =>
  value ? <DateTime value={dayOfIso(value)} dateOnly /> : 'N/A';

function ContactCard({
  title,
  contact,
  action,
}: {
  title: string;
  contact: Contact | null;
  action: ReactNode;
}) {
  const name = [contact?.firstNames, contact?.surname].filter(Boolean).join(' ');
  const a = contact?.address;
  const address = [
    a?.address1,
    a?.address2,
    a?.address3,
    a?.address4,
    a?.city,
    a?.state,
    a?.postCode,
    a?.country,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <Card withBorder padding="lg" h="100%">
      <Group justify="space-between" mb="md">
        <Title order={3} size="h5">
          {title}
        </Title>
        {action}
      </Group>
      <Stack gap="sm">
        <Field label="Company name">{text(contact?.companyName)}</Field>
        <Field label="Name">{text(name)}</Field>
        <Field label="Email">{text(contact?.emailAddress)}</Field>
        <Field label="Address">{text(address)}</Field>
      </Stack>
    </Card>
  );
}

/** spec 2 §2 Info tab: the details card, the billing and the delivery contact. */
export function RequestInfoTab({
  request,
  editable,
}: {
  request: PaymentRequest;
  editable: boolean;
}) {
  const [qrOpened, qr] = useDisclosure(false);
  const [detailsOpened, details] = useDisclosure(false);
  const [contactKind, setContactKind] = useState<ContactKind | null>(null);
  const editContact = (kind: ContactKind, label: string) => (
    <Button
      size="xs"
      variant="light"
      disabled={!editable}
      onClick={() => setContactKind(kind)}
      aria-label={`Edit ${label}`}
    >
      Edit
    </Button>
  );

  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card withBorder padding="lg" h="100%">
          <Group justify="space-between" mb="md">
            <Group gap="xs">
              <Title order={3} size="h5">
                Details
              </Title>
              {request.test && <Badge color="orange">Test</Badge>}
            </Group>
            <Button
              size="xs"
              variant="light"
              disabled={!editable}
              onClick={details.open}
              aria-label="Edit details"
            >
              Edit
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Field label="Customer name">{text(request.customerName)}</Field>
            <Field label="Amount to pay">
              <Group gap="xs">
                <Money amount={request.amountToPay} currency={request.currency} />
                <StatusTag
                  label={spaceWords(request.requestStatus)}
                  tone={requestStatusTone[request.requestStatus]}
                />
              </Group>
            </Field>
            <Field label="Created on">
              <DateTime value={request.createdOn} />
            </Field>
            <Field label="Customer reference">{text(request.customerReference)}</Field>
            <Field label="Account">
              {request.account
                ? `${request.account.accountReference} – ${request.account.name}`
                : '-'}
            </Field>
            <Field label="Valid from">{date(request.validFrom)}</Field>
            <Field label="Valid to">{date(request.validUntil)}</Field>
            <Field label="Payment requested by">{date(request.paymentRequiredBy)}</Field>
            <Field label="Capture type">{request.captureType}</Field>
            <Field label="Usage type">{shownUsage(request)}</Field>
          </SimpleGrid>
          <Stack gap="sm" mt="md">
            <Field label="Description">{text(request.description)}</Field>
            <Field label="Payment URL">
              {/* On a phone the buttons go under the address rather than off the card. */}
              <Group gap={4} wrap="wrap">
                <Anchor
                  href={request.requestUrl}
                  target="_blank"
                  rel="noreferrer"
                  style={{ wordBreak: 'break-all', minWidth: 0 }}
                >
                  {request.requestUrl}
                </Anchor>
                <CopyButton value={request.requestUrl} label="payment URL" />
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconQrcode size={14} />}
                  onClick={qr.open}
                >
                  QR code
                </Button>
              </Group>
            </Field>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack>
          <ContactCard
            title="Billing contact"
            contact={request.billingContact}
            action={editContact('billingContact', 'billing contact')}
          />
          <ContactCard
            title="Delivery contact"
            contact={request.deliveryContact}
            action={editContact('deliveryContact', 'delivery contact')}
          />
          <RequestTimeline request={request} />
        </Stack>
      </Grid.Col>
      <QrCodeDialog url={request.requestUrl} opened={qrOpened} onClose={qr.close} />
      <EditDetailsDialog request={request} opened={detailsOpened} onClose={details.close} />
      {contactKind && (
        <EditContactDialog
          request={request}
          kind={contactKind}
          opened
          onClose={() => setContactKind(null)}
        />
      )}
    </Grid>
  );
}

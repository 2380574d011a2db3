import {
  currencyDecimalPlaces,
  paymentRequestMessages,
  type PaymentRequest,
  type Transaction,
} from '@ledgerline/contract';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '@/lib/http';
import { errorMessage } from '@/lib/status-routing';
import { failureMessage } from '@/ui/form-errors';
import { CopyButton } from '@/ui/copy-button';
import { DateTime } from '@/ui/date-time';
import { LoadingState } from '@/ui/loading-state';
import { Money } from '@/ui/money';
import { useCreateInvoicesPaymentRequest } from '../api/create-invoices-payment-request';
import { amountOwed, useAccountUnpaidInvoices } from '../api/get-account-unpaid-invoices';
import { WideTable } from '@/ui/wide-table';
import { EmptyState } from '@/ui/empty-state';

const m = paymentRequestMessages;

type Props = { accountId: string; opened: boolean; onClose: () => void };

/**
 * spec 2 §2 Account detail, §3 transactionAllocations: staff tick the account's unpaid invoices
 * (amounts default to what each owes) and send ONE Transaction request for them; its payment link
 * is shown with a copy button and the request can be opened.
 */
export function RequestPaymentDialog({ accountId, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Request payment" centered size="xl">
      {/* Mounted per opening, so the list and the ticks are fresh. */}
      {opened ? <RequestPaymentForm accountId={accountId} onClose={onClose} /> : null}
    </Modal>
  );
}

function RequestPaymentForm({ accountId, onClose }: { accountId: string; onClose: () => void }) {
  const invoices = useAccountUnpaidInvoices(accountId, true);
  const [created, setCreated] = useState<PaymentRequest | null>(null);

  if (created) return <RequestCreated request={created} onClose={onClose} />;
  if (invoices.isPending) return <LoadingState label="Loading the unpaid invoices" />;
  if (invoices.isError) {
    return (
      <Alert color="red" title="The unpaid invoices could not be loaded">
        {errorMessage(invoices.error)}
      </Alert>
    );
  }
  if (invoices.data.length === 0) {
    return <EmptyState message="This account has no unpaid invoices." />;
  }
  return (
    <InvoicePicker
      accountId={accountId}
      invoices={invoices.data}
      onCreated={setCreated}
      onClose={onClose}
    />
  );
}

type PickerProps = {
  accountId: string;
  invoices: Transaction[];
  onCreated: (request: PaymentRequest) => void;
  onClose: () => void;
};

function InvoicePicker({ accountId, invoices, onCreated, onClose }: PickerProps) {
  const create = useCreateInvoicesPaymentRequest(accountId);
  const currencies = [...new Set(invoices.map((invoice) => invoice.currency))];
  const [currency, setCurrency] = useState(currencies[0]!);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [amounts, setAmounts] = useState<Record<string, number | string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const shown = invoices.filter((invoice) => invoice.currency === currency);
  const chosen = shown.filter((invoice) => selected.has(invoice.id));
  const amountOf = (invoice: Transaction) => amounts[invoice.id] ?? amountOwed(invoice);
  const total = chosen.reduce((sum, invoice) => {
    const value = amountOf(invoice);
    return sum + (typeof value === 'number' ? value : 0);
  }, 0);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  /** The same rules the server checks, with its messages, before anything is sent. */
  function check(): Record<string, string> {
    const found: Record<string, string> = {};
    for (const invoice of chosen) {
      const value = amountOf(invoice);
      if (value === '') found[invoice.id] = m.amountRequired;
      else if (typeof value !== 'number' || Number.isNaN(value)) found[invoice.id] = m.amountNumber;
      else if (value <= 0) found[invoice.id] = m.amountPositive;
      else if (value > amountOwed(invoice)) found[invoice.id] = m.amountAboveOutstanding;
    }
    return found;
  }

  const submit = () => {
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const allocations = chosen.map((invoice) => {
      const value = amountOf(invoice) as number;
      // The whole outstanding amount is sent as "no amount": the server takes what it owes then.
      return value === amountOwed(invoice)
        ? { transactionId: invoice.id }
        : { transactionId: invoice.id, amount: value };
    });
    create.mutate(
      { requestType: 'Transaction', accountId, currency, transactionAllocations: allocations },
      {
        onSuccess: onCreated,
        onError: (error) => {
          // A refusal names the entry (transactionAllocations.<i>.transactionId or .amount).
          const rowErrors: Record<string, string> = {};
          if (isApiError(error)) {
            for (const [path, messages] of Object.entries(error.fieldErrors)) {
              const index = /^transactionAllocations\.(\d+)\./.exec(path)?.[1];
              const invoice = index === undefined ? undefined : chosen[Number(index)];
              if (invoice && messages[0]) rowErrors[invoice.id] = messages[0];
            }
          }
          setErrors(rowErrors);
          setFailure(
            failureMessage('An error occurred while creating the payment request: ', error),
          );
        },
      },
    );
  };

  return (
    <Stack gap="md">
      {currencies.length > 1 ? (
        <Select
          label="Currency"
          description="A request asks for invoices in one currency."
          allowDeselect={false}
          data={currencies}
          value={currency}
          onChange={(value) => {
            if (!value) return;
            setCurrency(value);
            setSelected(new Set());
            setErrors({});
          }}
          comboboxProps={{ withinPortal: false }}
        />
      ) : null}
      <WideTable>
      <Table striped withTableBorder aria-label="Unpaid invoices">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Checkbox
                aria-label="Select all invoices"
                checked={chosen.length === shown.length}
                indeterminate={chosen.length > 0 && chosen.length < shown.length}
                onChange={(event) =>
                  setSelected(
                    event.currentTarget.checked
                      ? new Set(shown.map((invoice) => invoice.id))
                      : new Set(),
                  )
                }
              />
            </Table.Th>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Due date</Table.Th>
            <Table.Th>Outstanding</Table.Th>
            <Table.Th>Amount to request</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((invoice) => (
            <Table.Tr key={invoice.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${invoice.transactionReference}`}
                  checked={selected.has(invoice.id)}
                  onChange={(event) => toggle(invoice.id, event.currentTarget.checked)}
                />
              </Table.Td>
              <Table.Td>{invoice.transactionReference}</Table.Td>
              <Table.Td>
                {invoice.dueDate ? <DateTime value={invoice.dueDate} dateOnly /> : '-'}
              </Table.Td>
              <Table.Td>
                <Money amount={amountOwed(invoice)} currency={invoice.currency} />
              </Table.Td>
              <Table.Td>
                <NumberInput
                  aria-label={`Amount for ${invoice.transactionReference}`}
                  size="xs"
                  min={0}
                  decimalScale={currencyDecimalPlaces(invoice.currency)}
                  disabled={!selected.has(invoice.id)}
                  value={amountOf(invoice)}
                  error={errors[invoice.id]}
                  onChange={(value) => setAmounts({ ...amounts, [invoice.id]: value })}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      </WideTable>
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
      <Group justify="space-between">
        <Text>
          {chosen.length} selected, total{' '}
          <Money amount={Math.round(total * 10_000) / 10_000} currency={currency} />
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={chosen.length === 0} loading={create.isPending}>
            Request payment
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

function RequestCreated({ request, onClose }: { request: PaymentRequest; onClose: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="green">{m.created}</Alert>
      <Text>
        <Money amount={request.amountToPay} currency={request.currency} /> for{' '}
        {request.transactionAllocations?.length ?? 0} invoice(s). The payment link:
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Anchor
          href={request.requestUrl}
          target="_blank"
          rel="noreferrer"
          style={{ wordBreak: 'break-all' }}
        >
          {request.requestUrl}
        </Anchor>
        <CopyButton value={request.requestUrl} label="payment link" />
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button component={Link} to={`/payment-requests/${request.id}`}>
          Open request
        </Button>
      </Group>
    </Stack>
  );
}

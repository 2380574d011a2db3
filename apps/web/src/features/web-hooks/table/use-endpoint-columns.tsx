import type { WebHookEndpoint } from '@ledgerline/contract';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconListDetails, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { DataGridColumn } from '@/ui/data-grid';
import { StatusTag } from '@/ui/status-tag';

interface Options {
  onOpen: (endpoint: WebHookEndpoint) => void;
  onEdit: (endpoint: WebHookEndpoint) => void;
  onDelete: (endpoint: WebHookEndpoint) => void;
}

/** The endpoints grid: URL, description, event types, state, and the row's actions. */
export function useEndpointColumns({ onOpen, onEdit, onDelete }: Options) {
  return useMemo(
    (): DataGridColumn<WebHookEndpoint>[] => [
      {
        accessor: 'url',
        title: 'URL',
        sortable: true,
        render: (endpoint) => (
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {endpoint.url}
          </Text>
        ),
      },
      { accessor: 'description', title: 'Description', sortable: true },
      {
        accessor: 'eventTypes',
        title: 'Event types',
        render: (endpoint) =>
          endpoint.eventTypes.length === 0 ? (
            <Text size="sm" c="dimmed">
              All
            </Text>
          ) : (
            <Text size="sm">{endpoint.eventTypes.join(', ')}</Text>
          ),
      },
      {
        accessor: 'disabled',
        title: 'State',
        render: (endpoint) =>
          endpoint.disabled ? (
            <StatusTag label="Disabled" tone="neutral" />
          ) : endpoint.failingSince ? (
            <StatusTag label="Failing" tone="danger" />
          ) : (
            <StatusTag label="Enabled" tone="success" />
          ),
      },
      {
        accessor: 'actions',
        title: 'Actions',
        textAlign: 'right',
        width: 130,
        render: (endpoint) => (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label="Secret and deliveries">
              <ActionIcon
                variant="subtle"
                aria-label={`Open ${endpoint.url}`}
                onClick={() => onOpen(endpoint)}
              >
                <IconListDetails size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Edit">
              <ActionIcon
                variant="subtle"
                aria-label={`Edit ${endpoint.url}`}
                onClick={() => onEdit(endpoint)}
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${endpoint.url}`}
                onClick={() => onDelete(endpoint)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [onOpen, onEdit, onDelete],
  );
}

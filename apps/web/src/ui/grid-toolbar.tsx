import { CloseButton, Group, MultiSelect, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { GridController } from './use-grid-state';

const typingDelayMs = 300;

export interface GridStatusChoice {
  /** The query field the statuses filter ('status', 'requestStatus'). */
  field: string;
  label: string;
  options: readonly { value: string; label: string }[];
}

interface GridToolbarProps {
  grid: GridController;
  /** The list's name, for the search box's accessible name ('Search payment transactions'). */
  listName: string;
  /** What the box finds, in the list's words: 'Reference, customer or amount'. */
  placeholder: string;
  /** Several statuses at once (Failed and Rejected), where the list has statuses. */
  statuses?: GridStatusChoice;
}

/**
 * Above a list: a search box the server answers (references, names, an
 * amount), and on payments and requests a status multi-select. Both live in the grid's state,
 * so they are remembered and written to the address with the rest of the view.
 */
export function GridToolbar({ grid, listName, placeholder, statuses }: GridToolbarProps) {
  const { state, setSearch, setFilter } = grid;
  const [text, setText] = useState(state.search);
  const commit = useDebouncedCallback((value: string) => setSearch(value.trim()), {
    delay: typingDelayMs,
  });
  // The view changed from elsewhere (the address, a cleared grid): the box shows it.
  useEffect(() => {
    setText((typed) => (typed.trim() === state.search ? typed : state.search));
  }, [state.search]);

  const statusFilter = statuses ? state.filters[statuses.field] : undefined;
  const chosen =
    statusFilter?.type === 'choices'
      ? statusFilter.values
      : statusFilter?.type === 'select' && statusFilter.value
        ? [statusFilter.value]
        : [];

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        type="search"
        aria-label={`Search ${listName}`}
        placeholder={placeholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        style={{ flex: '1 1 16rem', maxWidth: '28rem' }}
        onChange={(event) => {
          setText(event.currentTarget.value);
          commit(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit.flush();
          if (event.key === 'Escape' && text !== '') {
            event.preventDefault();
            setText('');
            commit('');
            commit.flush();
          }
        }}
        rightSection={
          text ? (
            <CloseButton
              size="sm"
              aria-label="Clear search"
              onClick={() => {
                setText('');
                commit('');
                commit.flush();
              }}
            />
          ) : null
        }
      />
      {statuses && (
        <MultiSelect
          aria-label={statuses.label}
          placeholder={chosen.length ? undefined : `${statuses.label}: all`}
          data={[...statuses.options]}
          value={chosen}
          clearable
          clearButtonProps={{ 'aria-label': `Clear ${statuses.label.toLowerCase()}` }}
          style={{ flex: '1 1 14rem', maxWidth: '26rem' }}
          onChange={(values) =>
            setFilter(statuses.field, values.length ? { type: 'choices', values } : null)
          }
        />
      )}
    </Group>
  );
}

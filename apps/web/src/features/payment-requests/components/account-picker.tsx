import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useDialogAccountSearch, type DialogAccount } from '../api/get-dialog-accounts';

const labelOf = (account: DialogAccount) => `${account.accountReference} – ${account.name}`;

interface AccountPickerProps {
  /** spec 2 §2: the first 20 accounts, offered before anything is typed. */
  initial: readonly DialogAccount[];
  value?: string | null;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  error?: ReactNode;
}

/**
 * The New Request dialog's account select: the first 20 accounts at first, the
 * server's matches (reference or name) as the user types, 'Nothing found' when there are none.
 */
export function AccountPicker({
  initial,
  value = null,
  onChange,
  onBlur,
  onFocus,
  error,
}: AccountPickerProps) {
  const [search, setSearch] = useState('');
  const known = useRef(new Map(initial.map((account) => [account.id, account])));
  const selected = value ? known.current.get(value) : undefined;
  // Choosing an option writes its label into the box: that is not a search.
  const typed = selected && search === labelOf(selected) ? '' : search.trim();
  const [debounced] = useDebouncedValue(typed, 250);
  const found = useDialogAccountSearch(debounced);

  const accounts = useMemo(() => {
    const shown = typed === '' ? initial : (found.data ?? []);
    for (const account of shown) known.current.set(account.id, account);
    // Before anything is typed the chosen account stays an option, so its label shows; a search
    // shows only the server's matches, so that none at all reads 'Nothing found'.
    return typed === '' && selected && !shown.some((account) => account.id === selected.id)
      ? [selected, ...shown]
      : shown;
  }, [typed, initial, found.data, selected]);
  const searching = typed !== '' && (typed !== debounced || found.isFetching);

  return (
    <Select
      label="Account"
      required
      // The form appears once the accounts are in, after the dialog took the focus: take it.
      autoFocus
      searchable
      allowDeselect={false}
      // The server filters; the box shows its answer as it is.
      filter={({ options }) => options}
      searchValue={search}
      onSearchChange={setSearch}
      // Leaving a search without choosing shows the chosen account again.
      onDropdownClose={() => setSearch(selected ? labelOf(selected) : '')}
      data={accounts.map((account) => ({ value: account.id, label: labelOf(account) }))}
      nothingFoundMessage={searching ? 'Searching…' : 'Nothing found'}
      comboboxProps={{ withinPortal: false }}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      onFocus={onFocus}
      error={error}
    />
  );
}

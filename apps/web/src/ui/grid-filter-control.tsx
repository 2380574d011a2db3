import { Button, Group, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { CalendarDateRangeInput } from './calendar-date-input';
import type { GridFilter } from './grid-state';

/** What a column offers to filter by (spec 2 "Grids in general"). */
export type GridFilterSpec =
  | { type: 'text' }
  | { type: 'select'; options: readonly (string | { value: string; label: string })[] }
  | { type: 'number' }
  | { type: 'date' };

/** The value of the 'All' choice of a select filter: no filter. */
export const allOption = '';
const typingDelayMs = 400;

interface GridFilterControlProps {
  spec: GridFilterSpec;
  /** The column title, for the input's label. */
  label: string;
  filter: GridFilter | undefined;
  onChange: (filter: GridFilter | null) => void;
  close: () => void;
}

function TextFilter({ label, filter, onChange }: Omit<GridFilterControlProps, 'spec' | 'close'>) {
  const [text, setText] = useState(filter?.type === 'text' ? filter.value : '');
  const commit = useDebouncedCallback(
    (value: string) => onChange(value.trim() ? { type: 'text', value } : null),
    { delay: typingDelayMs, flushOnUnmount: true },
  );
  return (
    <TextInput
      label={`${label} contains`}
      value={text}
      data-autofocus
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit.flush();
      }}
    />
  );
}

/** Amounts are numeric(19,4) (design §3): at most 15 digits before the point. */
const numberFilterMessage = 'Enter a number with at most 15 digits before the decimal point.';

function isFilterNumber(value: string | number): boolean {
  if (value === '') return true;
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    String(Math.trunc(Math.abs(value))).length <= 15
  );
}

function NumberFilter({ label, filter, onChange }: Omit<GridFilterControlProps, 'spec' | 'close'>) {
  const [value, setValue] = useState<string | number>(
    filter?.type === 'number' ? filter.value : '',
  );
  const commit = useDebouncedCallback(
    (next: string | number) =>
      onChange(typeof next === 'number' ? { type: 'number', value: next } : null),
    { delay: typingDelayMs, flushOnUnmount: true },
  );
  const invalid = !isFilterNumber(value);
  return (
    <NumberInput
      label={`${label} at least`}
      value={value}
      decimalScale={4}
      data-autofocus
      // Said, not dropped: the list keeps its previous filter meanwhile.
      error={invalid ? numberFilterMessage : undefined}
      onChange={(next) => {
        setValue(next);
        if (isFilterNumber(next)) commit(next);
      }}
    />
  );
}

/** One value of a select column, or All; several chosen above the list show as their count. */
function SelectFilter({
  label,
  options: given,
  filter,
  onChange,
}: Omit<GridFilterControlProps, 'spec' | 'close'> & {
  options: Extract<GridFilterControlProps['spec'], { type: 'select' }>['options'];
}) {
  const options = given.map((option) =>
    typeof option === 'string' ? { value: option, label: option } : option,
  );
  return (
    <Select
      label={label}
      data={[{ value: allOption, label: 'All' }, ...options]}
      value={
        filter?.type === 'select'
          ? filter.value
          : filter?.type === 'choices' && filter.values.length === 1
            ? filter.values[0]
            : allOption
      }
      description={
        filter?.type === 'choices' && filter.values.length > 1
          ? `Any of ${filter.values.length} chosen above the list`
          : undefined
      }
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
      onChange={(value) => onChange(value ? { type: 'select', value } : null)}
    />
  );
}

/** The popover content of a column filter. */
export function GridFilterControl({
  spec,
  label,
  filter,
  onChange,
  close,
}: GridFilterControlProps) {
  let input;
  switch (spec.type) {
    case 'text':
      input = <TextFilter label={label} filter={filter} onChange={onChange} />;
      break;
    case 'number':
      input = <NumberFilter label={label} filter={filter} onChange={onChange} />;
      break;
    case 'select':
      input = (
        <SelectFilter label={label} options={spec.options} filter={filter} onChange={onChange} />
      );
      break;
    case 'date':
      input = (
        <CalendarDateRangeInput
          label={`${label} between`}
          placeholder="Pick dates"
          clearable
          allowSingleDateInRange
          popoverProps={{ withinPortal: false }}
          value={filter?.type === 'date' ? [filter.from, filter.to] : [null, null]}
          onChange={([from, to]) =>
            onChange(from || to ? { type: 'date', from: from ?? null, to: to ?? null } : null)
          }
        />
      );
      break;
  }
  return (
    <Stack
      gap="xs"
      miw={220}
      // The filter's field holds the focus, where the popover's own Escape does not reach:
      // Escape closes the filter, what was typed stays applied.
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) close();
      }}
    >
      {input}
      <Group justify="flex-end" gap="xs">
        <Button
          size="compact-xs"
          variant="subtle"
          disabled={!filter}
          onClick={() => {
            onChange(null);
            close();
          }}
        >
          Clear filter
        </Button>
      </Group>
    </Stack>
  );
}

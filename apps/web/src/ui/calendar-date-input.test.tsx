import { defaultUserSetting, paymentRequestMessages } from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import {
  CalendarDateInput,
  CalendarDateRangeInput,
  inputPattern,
  parseTypedDay,
} from './calendar-date-input';

describe('inputPattern', () => {
  it("turns each of the contract's short date formats into Mantine's tokens", () => {
    expect(inputPattern('yyyy/MM/dd')).toBe('YYYY/MM/DD');
    expect(inputPattern('dd/MM/yyyy')).toBe('DD/MM/YYYY');
    expect(inputPattern('d/M/yyyy')).toBe('D/M/YYYY');
    expect(inputPattern('MM/dd/yyyy')).toBe('MM/DD/YYYY');
    expect(inputPattern('dd.MM.yyyy')).toBe('DD.MM.YYYY');
  });
});

describe('parseTypedDay', () => {
  it('reads a day typed in the format, with or without leading zeros', () => {
    expect(parseTypedDay('2026/12/05', 'yyyy/MM/dd')).toBe('2026-12-05');
    expect(parseTypedDay('05/12/2026', 'dd/MM/yyyy')).toBe('2026-12-05');
    expect(parseTypedDay('5/12/2026', 'd/M/yyyy')).toBe('2026-12-05');
    expect(parseTypedDay('12/05/2026', 'MM/dd/yyyy')).toBe('2026-12-05');
    expect(parseTypedDay(' 05.12.2026 ', 'dd.MM.yyyy')).toBe('2026-12-05');
    expect(parseTypedDay('05-12-2026', 'dd-MM-yyyy')).toBe('2026-12-05');
  });

  it('reads YYYY-MM-DD in every format, which none can mistake', () => {
    expect(parseTypedDay('2026-12-05', 'dd/MM/yyyy')).toBe('2026-12-05');
    expect(parseTypedDay('2026-12-05', 'MM/dd/yyyy')).toBe('2026-12-05');
  });

  it('refuses what is not a real day, and the other order of day and month', () => {
    expect(parseTypedDay('30/02/2026', 'dd/MM/yyyy')).toBeNull();
    expect(parseTypedDay('2026/13/45', 'yyyy/MM/dd')).toBeNull();
    expect(parseTypedDay('25/12/2026', 'MM/dd/yyyy')).toBeNull();
    expect(parseTypedDay('05/12/26', 'dd/MM/yyyy')).toBeNull();
    expect(parseTypedDay('tomorrow', 'yyyy/MM/dd')).toBeNull();
    expect(parseTypedDay('05/12/2026', 'dd.MM.yyyy')).toBeNull();
  });
});

function Field({ initial, onChange }: { initial: string | null; onChange: (value: string | null) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <CalendarDateInput
      label="Due date"
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

const userWith = (shortDateFormat: (typeof defaultUserSetting)['shortDateFormat'] | 'dd/MM/yyyy' | 'MM/dd/yyyy') =>
  aUser({ userSetting: { ...defaultUserSetting, shortDateFormat } });

describe('CalendarDateInput', () => {
  it("shows the day in the spec's default short format, yyyy/MM/dd, when the user chose none", async () => {
    renderWithProviders(<Field initial="2026-12-05" onChange={vi.fn()} />);
    expect(await screen.findByRole('textbox', { name: 'Due date' })).toHaveValue('2026/12/05');
  });

  it("shows and reads the day in the user's short date format", async () => {
    const onChange = vi.fn();
    renderWithProviders(<Field initial="2026-12-05" onChange={onChange} />, {
      user: userWith('dd/MM/yyyy'),
    });
    const field = await screen.findByRole('textbox', { name: 'Due date' });
    expect(field).toHaveValue('05/12/2026');
    expect(field).toHaveAttribute('placeholder', 'DD/MM/YYYY');

    await userEvent.clear(field);
    await userEvent.type(field, '25/12/2026');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2026-12-25'));
    await userEvent.tab();
    expect(screen.queryByText(paymentRequestMessages.dateInvalid)).not.toBeInTheDocument();
  });

  it('takes YYYY-MM-DD in any format', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Field initial={null} onChange={onChange} />, {
      user: userWith('MM/dd/yyyy'),
    });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Due date' }), '2026-07-04');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2026-07-04'));
  });

  it('says a typed text that is no day in the format is not one, and hands it to the form as typed', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Field initial={null} onChange={onChange} />, {
      user: userWith('MM/dd/yyyy'),
    });
    const field = await screen.findByRole('textbox', { name: 'Due date' });
    // 25 is no month: in MM/dd/yyyy this is not Christmas.
    await userEvent.type(field, '25/12/2026');
    await userEvent.tab();
    expect(await screen.findByText(paymentRequestMessages.dateInvalid)).toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith('25/12/2026');
  });
});

describe('CalendarDateRangeInput', () => {
  it("shows a filter's two days in the user's short date format", async () => {
    renderWithProviders(
      <CalendarDateRangeInput label="Due date between" value={['2026-01-02', '2026-03-04']} onChange={vi.fn()} />,
      { user: userWith('dd/MM/yyyy') },
    );
    expect(await screen.findByRole('button', { name: 'Due date between' })).toHaveTextContent(
      '02/01/2026 – 04/03/2026',
    );
  });
});

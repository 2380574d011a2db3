import {
  accountReminderSettingsSchema,
  pageOf,
  reminderRunSchema,
  reminderSchema,
  type AccountReminderSettings,
  type AccountReminderSettingsBody,
  type ReminderRun,
} from '@ledgerline/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { accountKeys } from './account-keys';

/** An account's reminders, its reminder choice, and Send now. */
const reminderKeys = (accountId: string) => ({
  all: () => [...accountKeys().detail(accountId), 'reminders'] as const,
  list: (page: number) => [...accountKeys().detail(accountId), 'reminders', 'list', page] as const,
  settings: () => [...accountKeys().detail(accountId), 'reminders', 'settings'] as const,
});

const remindersPage = pageOf(reminderSchema);
const path = (accountId: string, tail: string) =>
  `/accounts/${encodeURIComponent(accountId)}/${tail}`;

export function useAccountReminders(accountId: string, page: number) {
  return useQuery(
    queryOptions({
      queryKey: reminderKeys(accountId).list(page),
      queryFn: ({ signal }) =>
        companyClient.get(path(accountId, 'reminders'), {
          query: { page, itemsPerPage: 20 },
          schema: remindersPage,
          signal,
        }),
      meta: { inlineErrors: true },
    }),
  );
}

export function useAccountReminderSettings(accountId: string) {
  return useQuery(
    queryOptions({
      queryKey: reminderKeys(accountId).settings(),
      queryFn: ({ signal }) =>
        companyClient.get(path(accountId, 'reminder-settings'), {
          schema: accountReminderSettingsSchema,
          signal,
        }),
      meta: { inlineErrors: true },
    }),
  );
}

export function useUpdateAccountReminderSettings(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountReminderSettingsBody): Promise<AccountReminderSettings> =>
      companyClient.put(path(accountId, 'reminder-settings'), body, {
        schema: accountReminderSettingsSchema,
      }),
    onSuccess: (saved) => queryClient.setQueryData(reminderKeys(accountId).settings(), saved),
  });
}

/** Send now: the account's reminders of today (its company's day) at once. */
export function useSendAccountReminder(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<ReminderRun> =>
      companyClient.post('/reminders/run', { accountId }, { schema: reminderRunSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reminderKeys(accountId).all() }),
  });
}

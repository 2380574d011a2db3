import { reminderRunSchema, type ReminderRun, type RunRemindersBody } from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyRootKey } from '@/lib/query-keys';

/** POST reminders/run: the day's reminders now; with an account id, that account's (Send now). */
export function runReminders(body: RunRemindersBody): Promise<ReminderRun> {
  return companyClient.post('/reminders/run', body, { schema: reminderRunSchema });
}

export function useRunReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runReminders,
    // The preview and the accounts' Reminders tabs change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyRootKey() }),
  });
}

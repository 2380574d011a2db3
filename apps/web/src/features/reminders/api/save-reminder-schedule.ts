import {
  reminderScheduleSchema,
  type ReminderSchedule,
  type ReminderScheduleBody,
} from '@ledgerline/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { reminderPreviewKeys, reminderScheduleKeys } from './reminder-keys';

/** POST reminder-schedules, or PUT reminder-schedules/{id} with an id. */
export function saveReminderSchedule(id: string | null, body: ReminderScheduleBody): Promise<ReminderSchedule> {
  return id === null
    ? companyClient.post('/reminder-schedules', body, { schema: reminderScheduleSchema })
    : companyClient.put(`/reminder-schedules/${encodeURIComponent(id)}`, body, {
        schema: reminderScheduleSchema,
      });
}

export function useSaveReminderSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ReminderScheduleBody }) =>
      saveReminderSchedule(id, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: reminderScheduleKeys().all() });
      await queryClient.invalidateQueries({ queryKey: reminderPreviewKeys().all() });
    },
  });
}

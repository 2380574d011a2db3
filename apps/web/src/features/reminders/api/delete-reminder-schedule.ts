import { useMutation, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { reminderScheduleKeys } from './reminder-keys';

/** 409 when the schedule is the company default or an account's choice. */
export function deleteReminderSchedule(id: string): Promise<unknown> {
  return companyClient.delete(`/reminder-schedules/${encodeURIComponent(id)}`);
}

export function useDeleteReminderSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReminderSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reminderScheduleKeys().all() }),
  });
}

import { reminderPreviewSchema, type ReminderPreview } from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { reminderPreviewKeys } from './reminder-keys';

/** GET reminders/preview: what the run of `date` sends (none: tomorrow in the company's zone). */
export function getReminderPreview(date: string | null, signal?: AbortSignal): Promise<ReminderPreview> {
  return companyClient.get('/reminders/preview', {
    query: { ...(date ? { date } : {}), itemsPerPage: 100 },
    schema: reminderPreviewSchema,
    signal,
  });
}

export function useReminderPreview(date: string | null) {
  return useQuery(
    queryOptions({
      queryKey: reminderPreviewKeys().list({ date }),
      queryFn: ({ signal }) => getReminderPreview(date, signal),
      meta: { inlineErrors: true },
    }),
  );
}

import { companyQueryKeys } from '@/lib/query-keys';

/** The reminder schedules and previews of the current company. */
export const reminderScheduleKeys = () => companyQueryKeys('reminder-schedules');
export const reminderPreviewKeys = () => companyQueryKeys('reminder-preview');

// Every schedule, read in pages of 20; shared with the account Settings tab (lib/api).
export { getAllReminderSchedules, useReminderSchedules } from '@/lib/api/configuration-lists';

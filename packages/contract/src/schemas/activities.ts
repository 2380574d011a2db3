import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { cursorPageOf } from './common.js';
import { countSchema } from './payment-transactions.js';

/** spec 3 §3 Audit activity. */
export const auditActivitySchema = z
  .object({
    id: z.uuid(),
    operation: z.string(),
    userName: z.string().nullable(),
    timestamp: z.iso.datetime(),
    status: z.number().int(),
    /** Why a call that answered 2xx did not do what it was asked (a declined capture); else null. */
    errorMessage: z.string().nullable(),
    ipAddress: z.string().nullable(),
    datasetId: z.number().int().nullable(),
    resourceType: z.string().nullable(),
    resourceId: z.string().nullable(),
  })
  .meta({ id: 'AuditActivity' });
export type AuditActivity = z.infer<typeof auditActivitySchema>;

/** Newest first; ids are UUIDv7, so the id order is the time order. */
export const auditActivityQuery = defineQueryFields(
  {
    id: { type: 'uuid', sortable: true, filterable: true },
    operation: { type: 'string', filterable: true },
    userName: { type: 'string', filterable: true },
    status: { type: 'number', filterable: true },
    timestamp: { type: 'date', filterable: true },
  },
  { defaultSort: '-id', search: { text: ['operation', 'userName'] } },
);

/** spec 3 §9: the activities page shows 15 rows; the resource activities request fetches 100. */
export const activityPageSize = 15;
export const resourceActivitiesMax = 100;

/**
 * spec 3 §9 GET audit-logs: a cursor page of activities. The first page (no cursor) also says how
 * many activities the list holds, exact up to countExactLimit and estimated past it, for the
 * Activities tabs' counts; later pages leave it out.
 */
export const auditLogsPageSchema = cursorPageOf(auditActivitySchema).extend({
  count: countSchema.optional(),
});
export type AuditLogsPage = z.infer<typeof auditLogsPageSchema>;

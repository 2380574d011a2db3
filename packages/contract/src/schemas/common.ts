import { z } from 'zod';

/** RFC 9457 problem document (design §3). */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errorCode: z.string().optional(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problemSchema>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), totalItems: z.number().int() });
}
export function cursorPageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next: z.string().nullable() });
}
export interface Page<T> {
  items: T[];
  totalItems: number;
}
export interface CursorPage<T> {
  items: T[];
  next: string | null;
}

export const uuidParam = z.object({ id: z.uuid() });

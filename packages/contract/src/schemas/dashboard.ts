import { z } from 'zod';
import { permissions } from '../permissions.js';

/** spec 1 §2.4 severities of a to-do item. */
export const todoSeverities = ['Informational', 'Warning', 'Critical'] as const;

export const todoItemSchema = z.object({
  id: z.string(),
  severity: z.enum(todoSeverities),
  title: z.string(),
  message: z.string(),
  /** The site's page that fixes it. */
  fixPath: z.string(),
  /** Needed to fix it; the site shows Fix only to who holds it. */
  permission: z.enum(permissions).nullable(),
});
export type TodoItem = z.infer<typeof todoItemSchema>;

export const dashboardTodoSchema = z
  .object({
    items: z.array(todoItemSchema),
  })
  .meta({ id: 'DashboardTodo' });
export type DashboardTodo = z.infer<typeof dashboardTodoSchema>;

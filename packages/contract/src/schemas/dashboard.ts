import { z } from 'zod';
import { permissions } from '../permissions.js';

/** spec 1 §2.4 severities of a to-do item. */
export const todoSeverities = ['Informational', 'Warning', 'Critical'] as const;

/** spec 1 §3 To-do result: severity, title, message, url, requiredPermissionToFix. */
export const todoItemSchema = z.object({
  /** Which kind of to-do it is (stable, for tests and the site's keys); not in the spec. */
  id: z.string(),
  severity: z.enum(todoSeverities),
  title: z.string(),
  message: z.string(),
  /** The site's page that fixes it (its Fix button links there). */
  url: z.string(),
  /**
   * Needed to fix it; the site shows Fix only to who holds it (spec 1 §2.4). Null: anyone may
   * follow the link (open disputes are answered at the provider; docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md).
   */
  requiredPermissionToFix: z.enum(permissions).nullable(),
});
export type TodoItem = z.infer<typeof todoItemSchema>;

export const dashboardTodoSchema = z
  .object({
    items: z.array(todoItemSchema),
  })
  .meta({ id: 'DashboardTodo' });
export type DashboardTodo = z.infer<typeof dashboardTodoSchema>;

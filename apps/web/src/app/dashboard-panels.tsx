import type { DashboardPanel } from '@/features/dashboard/components/dashboard-page';

/**
 * spec 1 §2.4: the dashboard's panels, in order. Areas add theirs here as they are built, e.g.
 *   { id: 'to-do', span: 'full', element: <TodoPanel /> },
 *   { id: 'successful-payments', element: <SuccessfulPaymentsPanel /> },
 *   { id: 'rejected-payments', element: <RejectedPaymentsPanel /> },
 */
export const dashboardPanels: readonly DashboardPanel[] = [];

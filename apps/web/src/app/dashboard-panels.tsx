import type { DashboardPanel } from '@/features/dashboard/components/dashboard-page';
import { FiguresPanel } from '@/features/dashboard/components/figures-panel';
import { TodoPanel } from '@/features/dashboard/components/todo-panel';
import {
  RejectedPaymentsPanel,
  SuccessfulPaymentsPanel,
} from '@/features/payment-transactions/components/latest-payments-panel';

/**
 * spec 1 §2.4: the dashboard's panels, in order. Areas add theirs here as they are built
 * (the to-do panel comes with the configuration areas of spec 3).
 */
export const dashboardPanels: readonly DashboardPanel[] = [
  { id: 'to-do', element: <TodoPanel />, span: 'full' },
  // Issue 22 item 4, issue 23: the money figures, after the spec's to-do list.
  { id: 'money', element: <FiguresPanel />, span: 'full' },
  { id: 'successful-payments', element: <SuccessfulPaymentsPanel /> },
  { id: 'rejected-payments', element: <RejectedPaymentsPanel /> },
];

import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { DashboardPanel } from '@/features/dashboard/components/dashboard-page';
import { TodoPanel } from '@/features/dashboard/components/todo-panel';
import {
  RejectedPaymentsPanel,
  SuccessfulPaymentsPanel,
} from '@/features/payment-transactions/components/latest-payments-panel';

/**
 * The money figures and their chart load beside the dashboard's data calls, not before its first
 * paint (the dashboard's first-load budget, scripts/check-bundle-size.mjs `onDemand`).
 */
const FiguresPanel = lazy(() =>
  import('@/features/dashboard/components/figures-panel').then((module) => ({
    default: module.FiguresPanel,
  })),
);

/**
 * spec 1 §2.4: the dashboard's panels, in order. Areas add theirs here as they are built
 * (the to-do panel comes with the configuration areas of spec 3).
 */
export const dashboardPanels: readonly DashboardPanel[] = [
  { id: 'to-do', element: <TodoPanel />, span: 'full' },
  // The money figures, after the spec's to-do list.
  {
    id: 'money',
    element: (
      <Suspense fallback={<Skeleton h={260} radius="md" />}>
        <FiguresPanel />
      </Suspense>
    ),
    span: 'full',
  },
  { id: 'successful-payments', element: <SuccessfulPaymentsPanel /> },
  { id: 'rejected-payments', element: <RejectedPaymentsPanel /> },
];

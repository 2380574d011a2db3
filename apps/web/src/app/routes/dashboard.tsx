import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { dashboardPanels } from '../dashboard-panels';

export function DashboardRoute() {
  return <DashboardPage panels={dashboardPanels} />;
}

import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { DashboardHeader } from './dashboard-header';
import classes from './dashboard-page.module.css';
import { NotificationAlerts } from './notification-alerts';

/** A panel another area mounts on the dashboard (registered in app/dashboard-panels.tsx). */
export interface DashboardPanel {
  id: string;
  element: ReactNode;
  /** 'half' (the default) sits beside another panel from lg up; 'full' takes the row. */
  span?: 'half' | 'full';
}

/** spec 1 §2.4: header, notification banners and the registered panels. */
export function DashboardPage({ panels }: { panels: readonly DashboardPanel[] }) {
  return (
    <Stack gap="lg">
      <DashboardHeader />
      <NotificationAlerts />
      {panels.length > 0 && (
        <div className={classes.panels}>
          {panels.map((panel) => (
            <div key={panel.id} className={panel.span === 'full' ? classes.full : undefined}>
              {panel.element}
            </div>
          ))}
        </div>
      )}
    </Stack>
  );
}

import { MySettingsPage } from '@/features/users/components/my-settings-page';

export function MySettingsRoute() {
  return <MySettingsPage />;
}

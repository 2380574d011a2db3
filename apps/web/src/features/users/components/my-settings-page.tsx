import { Stack, Title } from '@mantine/core';
import { useCurrentUser } from '@/auth/api/get-me';
import { ProfileDetails } from './profile-details';
import { UserSettingsForm } from './user-settings-form';

/** spec 2 §2 /my-settings: the signed-in user's details and display settings. */
export function MySettingsPage() {
  const { data: user } = useCurrentUser();
  // The route guard renders this page only once the profile is there.
  if (!user) return null;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">My settings</Title>
      <ProfileDetails user={user} />
      <UserSettingsForm key={user.id} setting={user.userSetting} />
    </Stack>
  );
}

import { userSettingSchema, type UserMe, type UserSetting } from '@ledgerline/contract';
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { tenantClient } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** spec 1 §7 PUT users/me/settings: the signed-in user's display settings. */
export function updateMySettings(setting: UserSetting): Promise<UserSetting> {
  return tenantClient.put('/users/me/settings', setting, { schema: userSettingSchema });
}

type Options = Omit<UseMutationOptions<UserSetting, Error, UserSetting>, 'mutationFn'>;

/** Saves, then refetches users/me so that dates re-format across the site. */
export function useUpdateMySettings(options: Options = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: updateMySettings,
    onSuccess: async (saved, ...rest) => {
      queryClient.setQueryData<UserMe>(queryKeys.users.me(), (me) =>
        me ? { ...me, userSetting: saved } : me,
      );
      await queryClient.invalidateQueries({ queryKey: queryKeys.users.me() });
      await options.onSuccess?.(saved, ...rest);
    },
  });
}

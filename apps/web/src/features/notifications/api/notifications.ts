import {
  customerNotificationsSchema,
  notificationRecipientsSchema,
  type AddNotificationRecipientBody,
  type UpdateCustomerNotificationsBody,
  type UpdateNotificationRecipientBody,
} from '@ledgerline/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/** Keys of the notification settings of the current company. */
export const notificationKeys = () => companyQueryKeys('notifications');

/** spec 3 §7 GET notifications/users. */
export function useNotificationUsers() {
  return useQuery({
    queryKey: notificationKeys().list({ tab: 'users' }),
    queryFn: ({ signal }) =>
      companyClient.get('/notifications/users', { schema: notificationRecipientsSchema, signal }),
  });
}

/** spec 3 §7 GET notifications/customer. */
export function useCustomerNotifications() {
  return useQuery({
    queryKey: notificationKeys().list({ tab: 'customer' }),
    queryFn: ({ signal }) =>
      companyClient.get('/notifications/customer', { schema: customerNotificationsSchema, signal }),
  });
}

function useNotificationMutation<T>(mutationFn: (body: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys().all() }),
  });
}

/** spec 3 §7 POST, PUT, DELETE notifications/users and PUT notifications/customer. */
export const useAddRecipient = () =>
  useNotificationMutation((body: AddNotificationRecipientBody) =>
    companyClient.post('/notifications/users', body),
  );
export const useUpdateRecipient = () =>
  useNotificationMutation((body: UpdateNotificationRecipientBody) =>
    companyClient.put('/notifications/users', body),
  );
export const useDeleteRecipient = () =>
  useNotificationMutation((id: string) =>
    companyClient.delete('/notifications/users', { query: { id } }),
  );
export const useUpdateCustomerNotifications = () =>
  useNotificationMutation((body: UpdateCustomerNotificationsBody) =>
    companyClient.put('/notifications/customer', body),
  );

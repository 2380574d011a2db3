import { z } from 'zod';

/**
 * spec 3 §3 known notifications; the first ones go to staff, the last three to the payer.
 * TenantPaymentDisputed is Ledgerline's own: a dispute or chargeback opened or closed.
 */
export const userNotificationNames = [
  'TenantPaymentSuccessful',
  'TenantPaymentFailed',
  'TenantPaymentProcessing',
  'TenantPaymentDisputed',
] as const;
export const customerNotificationNames = [
  'PaymentPending',
  'PaymentPendingCancelled',
  'PaymentPendingCompleted',
] as const;
export const notificationNames = [...userNotificationNames, ...customerNotificationNames] as const;
export type NotificationName = (typeof notificationNames)[number];

/** 'PayThem user' of the spec is a Ledgerline user (design.md). */
export const notificationRecipientTypes = ['LedgerlineUser', 'EmailAddress'] as const;
export type NotificationRecipientType = (typeof notificationRecipientTypes)[number];

export const notificationLimits = { emailAddress: 255 } as const;
export const notificationMessages = {
  typeRequired: 'Type is required',
  emailRequired: 'Email address is required',
  emailInvalid: 'Email address must be a valid email address',
  emailTooLong: 'Email address must be at most 255 characters',
  userRequired: 'Choose a Ledgerline user',
  userNotFound: 'The user was not found.',
  alreadyAdded: 'This recipient has already been added.',
  recipientNotFound: 'The notification recipient was not found.',
  notificationName: `Notification must be one of ${notificationNames.join(', ')}.`,
} as const;

export const notificationSettingSchema = z.object({
  /** The recipient's id on the User tab; null on the Customer tab. */
  notificationUserId: z.uuid().nullable(),
  notificationName: z.enum(notificationNames),
  isEnabled: z.boolean(),
});
export type NotificationSetting = z.infer<typeof notificationSettingSchema>;

export const notificationRecipientSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(notificationRecipientTypes),
    userId: z.uuid().nullable(),
    emailAddress: z.string().nullable(),
    /** The user's display name for a Ledgerline user; the address otherwise. */
    displayName: z.string(),
    notificationSettings: z.array(notificationSettingSchema),
  })
  .meta({ id: 'NotificationRecipient' });
export type NotificationRecipient = z.infer<typeof notificationRecipientSchema>;

export const notificationRecipientsSchema = z.object({
  items: z.array(notificationRecipientSchema),
  /** Ledgerline users not yet added: the Ledgerline-user option is offered only when there are some. */
  availableUsers: z.array(
    z.object({ id: z.uuid(), displayName: z.string(), emailAddress: z.string() }),
  ),
});
export type NotificationRecipients = z.infer<typeof notificationRecipientsSchema>;

export const customerNotificationsSchema = z.object({
  notificationSettings: z.array(notificationSettingSchema),
});
export type CustomerNotifications = z.infer<typeof customerNotificationsSchema>;

const settingsIn = z
  .array(
    z.object({
      notificationName: z.enum(notificationNames, {
        message: notificationMessages.notificationName,
      }),
      isEnabled: z.boolean(),
    }),
  )
  .max(notificationNames.length * 2);

/** POST notifications/users (spec 3 §5 Notification user). */
export const addNotificationRecipientBody = z
  .object({
    type: z.enum(notificationRecipientTypes, { message: notificationMessages.typeRequired }),
    userId: z.uuid({ message: notificationMessages.userRequired }).nullish(),
    emailAddress: z.string().trim().nullish(),
    notificationSettings: settingsIn.optional(),
  })
  .superRefine((body, context) => {
    if (body.type === 'LedgerlineUser' && !body.userId)
      context.addIssue({
        code: 'custom',
        path: ['userId'],
        message: notificationMessages.userRequired,
      });
    if (body.type !== 'EmailAddress') return;
    const email = body.emailAddress ?? '';
    const message =
      email === ''
        ? notificationMessages.emailRequired
        : email.length > notificationLimits.emailAddress
          ? notificationMessages.emailTooLong
          : z.email({ pattern: z.regexes.unicodeEmail }).safeParse(email).success
            ? null
            : notificationMessages.emailInvalid;
    if (message) context.addIssue({ code: 'custom', path: ['emailAddress'], message });
  })
  .meta({ id: 'AddNotificationRecipient' });
export type AddNotificationRecipientBody = z.input<typeof addNotificationRecipientBody>;

/** PUT notifications/users: a recipient's switches. */
export const updateNotificationRecipientBody = z
  .object({ id: z.uuid(), notificationSettings: settingsIn })
  .meta({ id: 'UpdateNotificationRecipient' });
export type UpdateNotificationRecipientBody = z.input<typeof updateNotificationRecipientBody>;

/** PUT notifications/customer: the Customer tab's switches. */
export const updateCustomerNotificationsBody = z
  .object({ notificationSettings: settingsIn })
  .meta({ id: 'UpdateCustomerNotifications' });
export type UpdateCustomerNotificationsBody = z.input<typeof updateCustomerNotificationsBody>;

export const deleteNotificationRecipientQuery = z.object({ id: z.uuid() });

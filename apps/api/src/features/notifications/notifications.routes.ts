import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addNotificationRecipientBody,
  customerNotificationsSchema,
  deleteNotificationRecipientQuery,
  notificationRecipientSchema,
  notificationRecipientsSchema,
  updateCustomerNotificationsBody,
  updateNotificationRecipientBody,
} from '@ledgerline/contract';
import { datasetScopeOf } from '../../platform/scope.js';
import type { NotificationsService } from './notifications.service.js';

const tags = ['notifications'];
const permission = 'ConfigureSystemSettings' as const;

/** The User tab: its recipients, and adding one. */
function recipientListRoutes(app: FastifyInstance, service: NotificationsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/notifications/users',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary: 'The User tab: recipients with their switches, and the users not yet added',
        response: { 200: notificationRecipientsSchema },
      },
    },
    async (request) => request.tenantRead((tx) => service.list(tx, datasetScopeOf(request))),
  );

  r.post(
    '/api/v0/notifications/users',
    {
      config: { access: 'dataset', permission, operation: 'AddNotificationRecipient' },
      schema: {
        tags,
        summary:
          'Add a recipient: a Ledgerline user of the tenant or an e-mail address (answers 201)',
        description:
          'Every notification starts off unless notificationSettings switches it on. 409 when the recipient is already added.',
        body: addNotificationRecipientBody,
        response: { 201: notificationRecipientSchema },
      },
    },
    async (request, reply) => {
      const recipient = await request.unitOfWork(async (tx) => {
        const added = await service.add(tx, datasetScopeOf(request), request.body);
        request.auditResource = { type: 'NotificationRecipient', id: added.id };
        return added;
      }, 201);
      return reply.status(201).send(recipient);
    },
  );
}

/** One recipient: its switches, and removing it. */
function recipientRoutes(app: FastifyInstance, service: NotificationsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.put(
    '/api/v0/notifications/users',
    {
      config: { access: 'dataset', permission, operation: 'UpdateNotificationRecipient' },
      schema: {
        tags,
        summary: "Switch a recipient's notifications on or off",
        body: updateNotificationRecipientBody,
        response: { 200: notificationRecipientSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'NotificationRecipient', id: request.body.id };
      return request.unitOfWork((tx) =>
        service.update(
          tx,
          datasetScopeOf(request),
          request.body.id,
          request.body.notificationSettings,
        ),
      );
    },
  );

  r.delete(
    '/api/v0/notifications/users',
    {
      config: { access: 'dataset', permission, operation: 'DeleteNotificationRecipient' },
      schema: {
        tags,
        summary: 'Remove a recipient (query id; answers 204)',
        querystring: deleteNotificationRecipientQuery,
      },
    },
    async (request, reply) => {
      request.auditResource = { type: 'NotificationRecipient', id: request.query.id };
      await request.unitOfWork(
        (tx) => service.remove(tx, datasetScopeOf(request), request.query.id),
        204,
      );
      return reply.status(204).send();
    },
  );
}

/** The Customer tab: the payer notifications. */
function customerNotificationRoutes(app: FastifyInstance, service: NotificationsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0/notifications/customer',
    {
      config: { access: 'dataset', permission },
      schema: {
        tags,
        summary: 'The Customer tab: the payer notifications (on by default)',
        response: { 200: customerNotificationsSchema },
      },
    },
    async (request) => request.tenantRead((tx) => service.customer(tx, datasetScopeOf(request))),
  );

  r.put(
    '/api/v0/notifications/customer',
    {
      config: { access: 'dataset', permission, operation: 'UpdateCustomerNotifications' },
      schema: {
        tags,
        summary: 'Switch payer notifications on or off',
        body: updateCustomerNotificationsBody,
        response: { 200: customerNotificationsSchema },
      },
    },
    async (request) => {
      request.auditResource = { type: 'CustomerNotifications', id: String(request.datasetId) };
      return request.unitOfWork((tx) =>
        service.saveCustomer(tx, datasetScopeOf(request), request.body.notificationSettings),
      );
    },
  );
}

/** spec 3 §7 notifications/users and notifications/customer; all need ConfigureSystemSettings (spec 3 §6). */
export async function notificationsRoutes(
  app: FastifyInstance,
  options: { service: NotificationsService },
) {
  recipientListRoutes(app, options.service);
  recipientRoutes(app, options.service);
  customerNotificationRoutes(app, options.service);
}

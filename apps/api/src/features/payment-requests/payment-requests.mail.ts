import Big from 'big.js';
import { currencyDecimalPlaces } from '@ledgerline/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import { subjectValue, type Mailer } from '../../platform/mail.js';
import { companyMail, readMailCompany } from '../notifications/index.js';
import { requestLinkEventPrefix } from './payment-request-reads.repository.js';
import { readRequestForLinkMail, recordLinkMailSent } from './payment-requests.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

export const requestLinkJob = 'payment-request.link';

export interface RequestLinkJob extends DatasetScope {
  paymentRequestId: string;
  emailAddress: string;
  requestUrl: string;
  /** One per POST payment-requests/{id}/send: a resend is a new mail, a retried job is not. */
  sendId: string;
}

/**
 * The request's link mailed to its payer, in the company's layout like every
 * mail about the company. Sent by a job after the commit that accepted the send (style.md §7);
 * each sending is recorded in notification_deliveries, which the request page reads back as its
 * timeline, and which keeps a retried job from mailing twice.
 */
export function createPaymentRequestMails(deps: {
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  log: FastifyBaseLogger;
}) {
  const { database, jobs, mailer, log } = deps;

  async function deliver(job: RequestLinkJob) {
    const scope = { tenantId: job.tenantId, datasetId: job.datasetId };
    const eventKey = `${requestLinkEventPrefix(job.paymentRequestId)}${job.sendId}`;
    const prepared = await database.withTenant(scope.tenantId, async (tx) => {
      const request = await readRequestForLinkMail(tx, scope, job.paymentRequestId, eventKey);
      // Gone with its company before the mail went out, or this sending was mailed already.
      if (!request) return null;
      return { request, company: await readMailCompany(tx, scope) };
    });
    if (!prepared) return;
    const { request, company } = prepared;
    const amount = `${request.currency} ${new Big(request.amountToPay).toFixed(currencyDecimalPlaces(request.currency))}`;
    const lines = [
      `${company.companyName} asks you to pay ${amount}.`,
      ...(request.description ? ['', request.description] : []),
      ...(request.paymentRequiredBy ? ['', `Please pay by ${request.paymentRequiredBy}.`] : []),
    ];
    await mailer.send({
      to: job.emailAddress,
      subject: `Payment request from ${subjectValue(company.companyName)}: ${subjectValue(amount)}`,
      ...companyMail(company, lines, { label: 'Pay now', url: job.requestUrl }),
    });
    await database.withTenant(scope.tenantId, (tx) =>
      recordLinkMailSent(tx, scope, { eventKey, emailAddress: job.emailAddress }),
    );
    log.info({ ...scope, paymentRequestId: request.id }, 'payment request link sent');
  }

  return {
    register: () => jobs.work<RequestLinkJob>(requestLinkJob, deliver),
    /** Call after the commit that accepted the send. */
    send: (job: RequestLinkJob) =>
      jobs.send<RequestLinkJob>(requestLinkJob, job, {
        singletonKey: `request-link:${job.sendId}`,
      }),
  };
}

export type PaymentRequestMails = ReturnType<typeof createPaymentRequestMails>;

import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import { currencyDecimalPlaces } from '@ledgerline/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { notificationDeliveries } from '../../db/schema-company.js';
import { paymentTransactions } from '../../db/schema-receivables.js';
import type { Jobs } from '../../platform/jobs.js';
import { subjectValue, type Mailer } from '../../platform/mail.js';
import { companyMail, readMailCompany } from '../notifications/index.js';
import type { PayScope } from './pay.repository.js';
import { inDataset } from '../../platform/scope.js';

export const receiptJob = 'pay.receipt';
const receiptName = 'PayerReceipt';

interface ReceiptJob extends PayScope {
  paymentTransactionId: string;
}

/** What the payer's receipts need. */
export interface PayReceiptsDeps {
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * The payer's receipt, beside the notification mails: after the commit that marked a
 * payer-page payment Paid, one job mails the address the payer gave, once per payment (recorded
 * in notification_deliveries like the notification mails, so a retried job sends nothing twice).
 */
export function createPayReceipts(deps: PayReceiptsDeps) {
  const { database, jobs, mailer, publicUrl, log } = deps;

  async function deliver(job: ReceiptJob) {
    const scope = { tenantId: job.tenantId, datasetId: job.datasetId };
    const eventKey = `${job.paymentTransactionId}:receipt`;
    const prepared = await database.withTenant(scope.tenantId, async (tx) => {
      const [payment] = await tx
        .select()
        .from(paymentTransactions)
        .where(
          and(
            inDataset(paymentTransactions, scope),
            eq(paymentTransactions.id, job.paymentTransactionId),
          ),
        );
      const email = (
        (payment?.customerDetails ?? {}) as { emailAddress?: string | null }
      ).emailAddress?.trim();
      if (!payment || !email) return null;
      const [sent] = await tx
        .select()
        .from(notificationDeliveries)
        .where(
          and(
            inDataset(notificationDeliveries, scope),
            eq(notificationDeliveries.eventKey, eventKey),
            eq(notificationDeliveries.notificationName, receiptName),
          ),
        );
      if (sent) return null;
      return { payment, email, company: await readMailCompany(tx, scope) };
    });
    if (!prepared) return;
    const { payment, email, company } = prepared;
    const amount = `${payment.currency} ${new Big(payment.totalAmount).toFixed(currencyDecimalPlaces(payment.currency))}`;
    const when = payment.statusDateTime.toISOString().slice(0, 16).replace('T', ' ');
    const lines = [
      `Thank you for your payment of ${amount} to ${company.companyName}.`,
      '',
      `Payment reference: ${payment.ledgerlineReference}`,
      `Amount: ${amount}`,
      `Paid: ${when} UTC`,
      ...(payment.paymentMethodType ? [`Method: ${payment.paymentMethodType}`] : []),
    ];
    const link = payment.paymentRequestId
      ? { label: 'Your payment request', url: `${publicUrl}/pay/${payment.paymentRequestId}` }
      : null;
    // The company's layout, logo and details, as every mail about the company.
    await mailer.send({
      to: email,
      subject: `Receipt: your payment of ${subjectValue(amount)} to ${subjectValue(company.companyName)}`,
      ...companyMail(company, lines, link),
    });
    await database.withTenant(scope.tenantId, (tx) =>
      tx
        .insert(notificationDeliveries)
        .values({ ...scope, eventKey, notificationName: receiptName, emailAddress: email })
        .onConflictDoNothing(),
    );
    log.info({ ...scope, paymentTransactionId: payment.id }, 'payer receipt sent');
  }

  return {
    register: () => jobs.work<ReceiptJob>(receiptJob, deliver),
    deliver,
    /** Call after the commit that marked the payment Paid. */
    async paymentPaid(scope: PayScope, paymentTransactionId: string) {
      await jobs.send<ReceiptJob>(
        receiptJob,
        { ...scope, paymentTransactionId },
        { singletonKey: `receipt:${paymentTransactionId}` },
      );
    },
  };
}

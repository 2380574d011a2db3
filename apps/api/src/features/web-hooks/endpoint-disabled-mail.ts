import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { escapeHtml, subjectValue, type Mailer } from '../../platform/mail.js';
import type { DatasetScope } from '../../platform/scope.js';
import { administratorAddresses, endpointUrl } from './web-hooks-delivery.repository.js';
import { companyName } from './web-hooks.repository.js';

/** Mails the tenant's administrators that an endpoint failing too long was switched off. */
export async function tellAdministrators(
  deps: {
    database: Database;
    mailer: Mailer;
    publicUrl: string;
    log: FastifyBaseLogger;
    disableAfterHours: number;
  },
  scope: DatasetScope,
  endpointId: string,
) {
  const { database, mailer, log, disableAfterHours } = deps;
  const { tenantId, datasetId } = scope;
  try {
    const url = (await endpointUrl(database.db, scope, endpointId)) ?? endpointId;
    const name = (await companyName(database.db, scope)) ?? `company ${datasetId}`;
    const administrators = await administratorAddresses(database.db, scope);
    const lead = `Ledgerline stopped sending web hooks of ${name} to ${url}: every attempt failed for ${disableAfterHours / 24} days. Fix the receiver, then switch the endpoint on again on the Web Hooks page.`;
    const link = `${deps.publicUrl}/settings/web-hooks`;
    for (const email of administrators) {
      await mailer.send({
        to: email,
        subject: `Web hook endpoint disabled: ${subjectValue(url, 120)}`,
        text: `${lead}\n\n${link}\n`,
        html: `<p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      });
    }
    log.warn(
      { tenantId, datasetId, endpointId },
      'web hook endpoint disabled after failing too long',
    );
  } catch (error) {
    log.error(
      { err: error, tenantId, endpointId },
      'could not mail the administrators about a disabled web hook endpoint',
    );
  }
}

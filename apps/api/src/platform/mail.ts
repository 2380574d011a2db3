import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Inline images (an HTML part refers to one as cid:<cid>) or files. */
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Real mail through SMTP_URL; without it each message is written as an .eml file under
 * <DATA_DIR>/mail and logged, so a first run needs no mail server (design §1).
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        message = { ...message, subject: safeSubject(message.subject) };
        await transport.sendMail({ from: options.from, ...message });
        options.log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  const folder = join(options.dataDir, 'mail');
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(message) {
      message = { ...message, subject: safeSubject(message.subject) };
      const info = await transport.sendMail({ from: options.from, ...message });
      mkdirSync(folder, { recursive: true });
      const file = join(
        folder,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      options.log.info(
        { to: message.to, subject: message.subject, file },
        'mail written to the mail drop (no SMTP_URL)',
      );
    },
  };
}

/** Characters no subject carries: C0 and C1 controls (CR and LF among them), DEL, Unicode line and
 * paragraph separators and the bidirectional overrides that reorder what the reader sees. */
const subjectControls =
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The longest value (in characters) one interpolation puts into a subject. */
export const subjectValueMaxLength = 80;

/**
 * A value for a mail subject: a payer's name, a company name, an address.
 * Control characters become spaces, runs of spaces one, and a value past `max` characters is cut
 * with an ellipsis, so nobody writes header lines or pushes the subject's own words out of sight.
 */
export function subjectValue(value: string, max = subjectValueMaxLength): string {
  const clean = value.replace(subjectControls, ' ').replace(/\s+/g, ' ').trim();
  const characters = Array.from(clean);
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : clean;
}

/** The last guard, whoever composed the subject: no control characters, at most 250 characters. */
function safeSubject(subject: string): string {
  return subjectValue(subject, 250);
}

export { escapeHtml } from './html.js';

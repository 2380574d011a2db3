import { createHash } from 'node:crypto';
import { formBody } from '../http.js';
import { keptSealed, recordedFetch, type ExchangeRecorder } from '../recorded-fetch.js';

/** What the Reporting & Admin API answered: errorcode 0000 is success. */
export interface OpayoAdminAnswer {
  errorCode: string;
  error: string | null;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
const tagOf = (xml: string, tag: string) => {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return match
    ? match[1]!.replace(
        /&lt;|&gt;|&amp;|&apos;|&quot;/g,
        (e) => ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&apos;': "'", '&quot;': '"' })[e]!,
      )
    : null;
};

/** reference/providers.md: each IPv4 part zero-padded to three digits. */
export const paddedIp = (ip: string) =>
  ip
    .split('.')
    .map((part) => part.padStart(3, '0'))
    .join('.');

/** The admin user a command is signed for, on the test or the live server. */
interface OpayoAdminLogin {
  useTestServer: boolean;
  vendor: string;
  user: string;
  password: string;
}

/**
 * Opayo's Reporting & Admin API (`POST /access/access.htm`, one form field XML): the command is
 * signed with the lower-case MD5 of its elements followed by `<password>…</password>`; the
 * password itself is never sent.
 */
export function createOpayoAdmin(options: { testUrl: string; liveUrl: string; timeoutMs: number }) {
  async function command(
    input: OpayoAdminLogin & { command: string; parameters?: string },
    recorder: ExchangeRecorder | undefined,
  ): Promise<OpayoAdminAnswer> {
    const elements = `<command>${escapeXml(input.command)}</command><vendor>${escapeXml(input.vendor)}</vendor><user>${escapeXml(input.user)}</user>${input.parameters ?? ''}`;
    const signature = createHash('md5')
      .update(`${elements}<password>${escapeXml(input.password)}</password>`)
      .digest('hex');
    const xml = `<vspaccess>${elements}<signature>${signature}</signature></vspaccess>`;
    const base = input.useTestServer ? options.testUrl : options.liveUrl;
    const url = `${base.replace(/\/$/, '')}/access/access.htm`;
    const answer = await recordedFetch(
      'Opayo',
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: formBody({ XML: xml }),
        timeoutMs: options.timeoutMs,
      },
      {
        recorder,
        eventType: input.command,
        recordType: 'vendor',
        recordId: input.vendor,
        // The signature is the MD5 of the elements and the password: kept out like the password.
        request: {
          method: 'POST',
          url,
          body: { XML: `<vspaccess>${elements}<signature>${keptSealed}</signature></vspaccess>` },
        },
        status: (answer) => tagOf(answer.text, 'errorcode') ?? `http_${answer.status}`,
      },
    );
    const errorCode = tagOf(answer.text, 'errorcode');
    if (answer.status !== 200 || errorCode === null) {
      return { errorCode: 'HTTP', error: `Opayo answered HTTP ${answer.status}.` };
    }
    return { errorCode, error: tagOf(answer.text, 'error') };
  }

  return {
    /** Connection test: the `version` command. */
    testConnection: (input: OpayoAdminLogin, recorder?: ExchangeRecorder) =>
      command({ ...input, command: 'version' }, recorder),
    registerIp: (
      input: OpayoAdminLogin & { ip: string; note: string },
      recorder?: ExchangeRecorder,
    ) =>
      command(
        {
          ...input,
          command: 'addValidIPs',
          parameters: `<validips><ipaddress><address>${paddedIp(input.ip)}</address><mask>255.255.255.255</mask><note>${escapeXml(input.note)}</note></ipaddress></validips>`,
        },
        recorder,
      ),
  };
}
export type OpayoAdmin = ReturnType<typeof createOpayoAdmin>;

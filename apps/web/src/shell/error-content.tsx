import { Code, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ForbiddenIllustration, NotFoundIllustration } from './illustrations';

/** spec 1 §2.5: the texts of the error page by code. */
export const errorTexts = {
  notFound: "We can't find the requested page.",
  forbidden: 'Forbidden request',
  badGateway: 'The server encountered a temporary error and could not complete your request.',
  unavailable: 'Service is unavailable.',
  crossTenant: 'Cannot access information. Please sign out and sign back in.',
  unhandled: 'We encountered an error while processing your request.',
} as const;

/** spec 1 §2.5: the cross-tenant page has no go-home link. */
export const crossTenantCode = '1000';

interface ErrorContentProps {
  code: string;
  /** Shown for the cross-tenant page and the generic error. */
  detail?: string;
  /** The way on: the go-home link, except on the cross-tenant page (spec 1 §2.5). */
  action?: ReactNode;
}

function describe(code: string): { text: string; illustration?: ReactNode; withDetail: boolean } {
  switch (code) {
    case '404':
      return {
        text: errorTexts.notFound,
        illustration: <NotFoundIllustration />,
        withDetail: false,
      };
    case '403':
      return {
        text: errorTexts.forbidden,
        illustration: <ForbiddenIllustration />,
        withDetail: false,
      };
    case '502':
      return { text: errorTexts.badGateway, withDetail: false };
    case '503':
      return { text: errorTexts.unavailable, withDetail: false };
    case crossTenantCode:
      return { text: errorTexts.crossTenant, withDetail: true };
    default:
      return { text: errorTexts.unhandled, withDetail: true };
  }
}

/**
 * spec 1 §2.5: the cross-tenant and the generic page show a detail. Without one handed over (a
 * reloaded or linked error page), they say what they know: the code.
 */
export function fallbackDetail(code: string): string {
  if (code === crossTenantCode) {
    return 'Error 1000: the information belongs to another organisation than the one you are signed in to.';
  }
  return code === 'unknown' ? 'No further detail was given.' : `Error ${code}.`;
}

export function ErrorContent({ code, detail, action }: ErrorContentProps) {
  const { text, illustration, withDetail } = describe(code);
  const shownDetail = withDetail ? detail || fallbackDetail(code) : undefined;
  return (
    <Stack align="center" gap="lg" py={64} ta="center">
      {illustration}
      <Title order={1} size="h2" fw={600}>
        {text}
      </Title>
      {shownDetail && (
        <Code block maw={640} style={{ whiteSpace: 'pre-wrap' }}>
          {shownDetail}
        </Code>
      )}
      {action}
    </Stack>
  );
}

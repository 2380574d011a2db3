import type { PaymentRequest } from '@ledgerline/contract';
import { Anchor, Card, Text, Timeline, Title } from '@mantine/core';
import { IconCash, IconMail, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DateTime } from '@/ui/date-time';
import { Money } from '@/ui/money';
import { spaceWords } from '@/ui/words';

interface TimelineEvent {
  key: string;
  at: string;
  icon: ReactNode;
  title: ReactNode;
}

/** The request's events, newest first: its creation, each payment attempt and each mail of its link. */
export function requestEvents(request: PaymentRequest): TimelineEvent[] {
  const events: TimelineEvent[] = [
    {
      key: 'created',
      at: request.createdOn,
      icon: <IconPlus size={12} />,
      title: 'Request created',
    },
    ...(request.paymentTransactions ?? []).map((payment) => ({
      key: `payment-${payment.id}`,
      at: payment.statusDateTime,
      icon: <IconCash size={12} />,
      title: (
        <>
          Payment{' '}
          <Anchor component={Link} to={`/payment-transactions/${payment.id}`}>
            {payment.ledgerlineReference}
          </Anchor>{' '}
          of <Money amount={payment.totalAmount} currency={payment.currency} />:{' '}
          {spaceWords(payment.status)}
        </>
      ),
    })),
    ...(request.mails ?? []).map((mail, index) => ({
      key: `mail-${index}-${mail.sentOn}`,
      at: mail.sentOn,
      icon: <IconMail size={12} />,
      title: `Link e-mailed to ${mail.emailAddress}`,
    })),
  ];
  return events.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

/** What happened to the request, attempts and mails, as one timeline. */
export function RequestTimeline({ request }: { request: PaymentRequest }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} size="h5" mb="md">
        Timeline
      </Title>
      <Timeline bulletSize={20} lineWidth={2} aria-label="Timeline">
        {requestEvents(request).map((event) => (
          <Timeline.Item
            key={event.key}
            bullet={event.icon}
            title={<Text size="sm">{event.title}</Text>}
          >
            <Text size="xs" c="dimmed">
              <DateTime value={event.at} />
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}

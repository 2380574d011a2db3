import type { PaidStatus } from '@ledgerline/contract';
import { StatusTag, type StatusTone } from '@/ui/status-tag';
import { spaceWords } from '@/ui/words';

const tone: Record<PaidStatus, StatusTone> = {
  Unpaid: 'warning',
  PartPaid: 'info',
  FullyPaid: 'success',
};

export function PaidStatusTag({ status }: { status: PaidStatus }) {
  return <StatusTag label={spaceWords(status)} tone={tone[status]} />;
}

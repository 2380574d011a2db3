import type { PaidStatus } from '@ledgerline/contract';
import { paidStatusTone, StatusBadge } from '@/ui/status-tones';

export function PaidStatusTag({ status }: { status: PaidStatus }) {
  return <StatusBadge status={status} tones={paidStatusTone} />;
}

// spec 3 §7: every group, read in pages of 20; shared with the account Settings tab (lib/api).
export { getAllSettlementGroups, useSettlementGroups } from '@/lib/api/configuration-lists';

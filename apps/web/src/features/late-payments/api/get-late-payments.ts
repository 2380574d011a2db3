// spec 3 §7: every configuration, read in pages of 20; shared with the account Settings tab (lib/api).
export { getAllLatePayments, useLatePayments } from '@/lib/api/configuration-lists';

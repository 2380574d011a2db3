import {
  latePaymentConfigurationSchema,
  pageOf,
  reminderScheduleSchema,
  settlementGroupSchema,
  type LatePaymentConfiguration,
  type ReminderSchedule,
  type SettlementGroup,
} from '@ledgerline/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/**
 * Every settlement configuration group and late payment configuration of the company. Shared: their
 * own areas list them, and an account's Settings tab offers them by name (spec 2 §2). The query
 * keys are the areas' own, so their saves refresh the Settings tab too.
 */
const pageSize = 20;

/** Reads `path` in pages of 20 until a short page (spec 3 §7). */
async function readAll<S extends z.ZodType>(
  path: string,
  item: S,
  signal?: AbortSignal,
): Promise<z.output<S>[]> {
  const schema = pageOf(item);
  const all: z.output<S>[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await companyClient.get(path, {
      query: { page, itemsPerPage: pageSize, sort: 'name' },
      schema,
      signal,
    });
    all.push(...answer.items);
    if (answer.items.length < pageSize || all.length >= answer.totalItems) return all;
  }
}

export function getAllSettlementGroups(signal?: AbortSignal): Promise<SettlementGroup[]> {
  return readAll('/settlement-configuration-groups', settlementGroupSchema, signal);
}

export function getAllLatePayments(signal?: AbortSignal): Promise<LatePaymentConfiguration[]> {
  return readAll('/late-payment-configurations', latePaymentConfigurationSchema, signal);
}

export function useSettlementGroups() {
  return useQuery(
    queryOptions({
      queryKey: companyQueryKeys('settlements').list({ all: true }),
      queryFn: ({ signal }) => getAllSettlementGroups(signal),
      // The pages show their own error state.
      meta: { inlineErrors: true },
    }),
  );
}

export function useLatePayments() {
  return useQuery(
    queryOptions({
      queryKey: companyQueryKeys('late-payments').list({ all: true }),
      queryFn: ({ signal }) => getAllLatePayments(signal),
      // The pages show their own error state.
      meta: { inlineErrors: true },
    }),
  );
}

/** Issue 23: every reminder schedule (its page, and an account's Settings tab by name). */
export function getAllReminderSchedules(signal?: AbortSignal): Promise<ReminderSchedule[]> {
  return readAll('/reminder-schedules', reminderScheduleSchema, signal);
}

export function useReminderSchedules() {
  return useQuery(
    queryOptions({
      queryKey: companyQueryKeys('reminder-schedules').list({ all: true }),
      queryFn: ({ signal }) => getAllReminderSchedules(signal),
      meta: { inlineErrors: true },
    }),
  );
}

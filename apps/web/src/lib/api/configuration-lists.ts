import {
  latePaymentConfigurationSchema,
  pageOf,
  reminderScheduleSchema,
  settlementGroupSchema,
  type LatePaymentConfiguration,
  type ReminderSchedule,
  type SettlementGroup,
} from '@ledgerline/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { companyClient } from '@/lib/http';
import { companyQueryKeys } from '@/lib/query-keys';

/**
 * Every settlement configuration group and late payment configuration of the company. Shared: their
 * own areas list them, and an account's Settings tab offers them by name (spec 2 §2). The query
 * keys are the areas' own, so their saves refresh the Settings tab too.
 */
const pageSize = 20;

/**
 * Reads `path` in pages of 20 until a short page (spec 3 §7); with `search`, only the rows the
 * server's search finds (the areas' search box).
 */
async function readAll<S extends z.ZodType>(
  path: string,
  item: S,
  signal?: AbortSignal,
  search = '',
): Promise<z.output<S>[]> {
  const schema = pageOf(item);
  const all: z.output<S>[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await companyClient.get(path, {
      query: { page, itemsPerPage: pageSize, sort: 'name', ...(search ? { search } : {}) },
      schema,
      signal,
    });
    all.push(...answer.items);
    if (answer.items.length < pageSize || all.length >= answer.totalItems) return all;
  }
}

export function getAllSettlementGroups(
  signal?: AbortSignal,
  search = '',
): Promise<SettlementGroup[]> {
  return readAll('/settlement-configuration-groups', settlementGroupSchema, signal, search);
}

export function getAllLatePayments(
  signal?: AbortSignal,
  search = '',
): Promise<LatePaymentConfiguration[]> {
  return readAll('/late-payment-configurations', latePaymentConfigurationSchema, signal, search);
}

/** With `search`: the rows its search box finds (the list before stays while they load). */
export function useSettlementGroups(search = '') {
  return useQuery(
    queryOptions({
      queryKey: companyQueryKeys('settlements').list({ all: true, ...(search ? { search } : {}) }),
      queryFn: ({ signal }) => getAllSettlementGroups(signal, search),
      placeholderData: keepPreviousData,
      // The pages show their own error state.
      meta: { inlineErrors: true },
    }),
  );
}

/** With `search`: the rows its search box finds (the list before stays while they load). */
export function useLatePayments(search = '') {
  return useQuery(
    queryOptions({
      queryKey: companyQueryKeys('late-payments').list({
        all: true,
        ...(search ? { search } : {}),
      }),
      queryFn: ({ signal }) => getAllLatePayments(signal, search),
      placeholderData: keepPreviousData,
      // The pages show their own error state.
      meta: { inlineErrors: true },
    }),
  );
}

/** Every reminder schedule (its page, and an account's Settings tab by name). */
export function getAllReminderSchedules(
  signal?: AbortSignal,
  search = '',
): Promise<ReminderSchedule[]> {
  return readAll('/reminder-schedules', reminderScheduleSchema, signal, search);
}

/** With `search`: the rows its search box finds (the list before stays while they load). */
export function useReminderSchedules(search = '') {
  return useQuery(
    queryOptions({
      queryKey: companyQueryKeys('reminder-schedules').list({
        all: true,
        ...(search ? { search } : {}),
      }),
      queryFn: ({ signal }) => getAllReminderSchedules(signal, search),
      placeholderData: keepPreviousData,
      meta: { inlineErrors: true },
    }),
  );
}

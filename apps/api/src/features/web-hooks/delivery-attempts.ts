import type { PostResult } from './safe-http.js';
import type { DueDelivery } from './web-hooks-delivery.repository.js';

/** One attempt of a delivery and what came of it. */
export interface Attempt {
  row: Pick<DueDelivery, 'tenant_id' | 'dataset_id' | 'id' | 'endpoint_id' | 'attempts'>;
  result: PostResult;
}

/** An endpoint, by its company and id. */
export interface EndpointKey {
  tenantId: string;
  datasetId: number;
  id: string;
}

/** A 2xx answer, with no error on the way. */
export const succeeded = (result: PostResult) =>
  result.error === null &&
  result.statusCode !== null &&
  result.statusCode >= 200 &&
  result.statusCode < 300;

/** Seconds until the next attempt of a failed one; null when it succeeded or it was the last. */
export const retryOf = ({ row, result }: Attempt, retrySeconds: number[]) =>
  succeeded(result) ? null : (retrySeconds[row.attempts] ?? null);

/** The delivery's status after the attempt: Succeeded, Pending (a retry ahead) or Failed. */
export const statusAfter = (attempt: Attempt, retrySeconds: number[]) =>
  succeeded(attempt.result)
    ? 'Succeeded'
    : retryOf(attempt, retrySeconds) === null
      ? 'Failed'
      : 'Pending';

/** What the delivery log says of a failed attempt; null when it succeeded. */
export const errorOf = ({ result }: Attempt) =>
  succeeded(result) ? null : (result.error ?? `The endpoint answered ${result.statusCode}.`);

/** The columns of recordAttempts' one update, an array per column in the attempts' order. */
export function attemptColumns(done: Attempt[], retrySeconds: number[]) {
  return {
    tenantIds: done.map(({ row }) => row.tenant_id),
    datasetIds: done.map(({ row }) => Number(row.dataset_id)),
    ids: done.map(({ row }) => row.id),
    attempts: done.map(({ row }) => row.attempts + 1),
    statuses: done.map((attempt) => statusAfter(attempt, retrySeconds)),
    retryIn: done.map((attempt) => retryOf(attempt, retrySeconds)),
    statusCodes: done.map(({ result }) => result.statusCode),
    durations: done.map(({ result }) => result.durationMs),
    errors: done.map(errorOf),
  };
}

function endpointsOf(done: Attempt[], keep: (attempt: Attempt) => boolean): EndpointKey[] {
  const seen = new Map<string, EndpointKey>();
  for (const { row } of done.filter(keep)) {
    if (row.endpoint_id)
      seen.set(row.endpoint_id, {
        tenantId: row.tenant_id,
        datasetId: Number(row.dataset_id),
        id: row.endpoint_id,
      });
  }
  return [...seen.values()];
}

/**
 * The endpoints of a batch that answered (their failure clock stops), and those that only failed
 * (their clock starts): an endpoint with one answer in the batch is not failing.
 */
export function endpointOutcomes(done: Attempt[]) {
  const answered = endpointsOf(done, ({ result }) => succeeded(result));
  const answeredIds = new Set(answered.map((e) => e.id));
  const failing = endpointsOf(done, ({ result }) => !succeeded(result)).filter(
    (e) => !answeredIds.has(e.id),
  );
  return { answered, failing };
}

import { describe, expect, it } from 'vitest';
import {
  attemptColumns,
  endpointOutcomes,
  retryOf,
  statusAfter,
  succeeded,
  type Attempt,
} from './delivery-attempts.js';

const row = (id: string, endpoint: string | null, attempts = 0): Attempt['row'] => ({
  tenant_id: 't',
  dataset_id: 1,
  id,
  endpoint_id: endpoint,
  attempts,
});
const ok = { statusCode: 204, durationMs: 5, error: null };
const refused = { statusCode: 500, durationMs: 7, error: null };
const timedOut = { statusCode: null, durationMs: 3000, error: 'timeout' };

describe('delivery attempts', () => {
  it('counts only a 2xx answer without an error as success', () => {
    expect(succeeded(ok)).toBe(true);
    expect(succeeded(refused)).toBe(false);
    expect(succeeded(timedOut)).toBe(false);
    expect(succeeded({ statusCode: 200, durationMs: 1, error: 'cut off' })).toBe(false);
  });

  it('retries after the next wait in line and fails after the last', () => {
    const waits = [10, 60];
    expect(retryOf({ row: row('a', 'e', 0), result: refused }, waits)).toBe(10);
    expect(retryOf({ row: row('a', 'e', 1), result: refused }, waits)).toBe(60);
    expect(retryOf({ row: row('a', 'e', 2), result: refused }, waits)).toBeNull();
    expect(statusAfter({ row: row('a', 'e', 1), result: refused }, waits)).toBe('Pending');
    expect(statusAfter({ row: row('a', 'e', 2), result: refused }, waits)).toBe('Failed');
    expect(statusAfter({ row: row('a', 'e', 2), result: ok }, waits)).toBe('Succeeded');
  });

  it('writes one column per field, the error of a bare status code spelled out', () => {
    const columns = attemptColumns(
      [
        { row: row('a', 'e', 0), result: ok },
        { row: row('b', 'e', 0), result: refused },
        { row: row('c', 'f', 0), result: timedOut },
      ],
      [10],
    );
    expect(columns).toEqual({
      tenantIds: ['t', 't', 't'],
      datasetIds: [1, 1, 1],
      ids: ['a', 'b', 'c'],
      attempts: [1, 1, 1],
      statuses: ['Succeeded', 'Pending', 'Pending'],
      retryIn: [null, 10, 10],
      statusCodes: [204, 500, null],
      durations: [5, 7, 3000],
      errors: [null, 'The endpoint answered 500.', 'timeout'],
    });
  });

  it('takes an endpoint with one answer in the batch as answering, and Svix as no endpoint', () => {
    const { answered, failing } = endpointOutcomes([
      { row: row('a', 'e'), result: refused },
      { row: row('b', 'e'), result: ok },
      { row: row('c', 'f'), result: timedOut },
      { row: row('d', 'f'), result: refused },
      { row: row('s', null), result: refused },
    ]);
    expect(answered).toEqual([{ tenantId: 't', datasetId: 1, id: 'e' }]);
    expect(failing).toEqual([{ tenantId: 't', datasetId: 1, id: 'f' }]);
  });
});

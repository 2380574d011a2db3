import { importTemplate } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { planImport, readImportFile } from './payment-transactions.import.js';

// The import dialog's template is a file the import reads as it is.
describe('the import template', () => {
  it('is read as one row of a payment id and an allocated status', () => {
    const rows = readImportFile(Buffer.from(importTemplate.text, 'utf8'));
    expect(rows).toEqual([
      { line: 2, id: '0199f0aa-0000-7000-8000-000000000001', allocatedStatus: 'ManuallyAllocated' },
    ]);
    expect(planImport(rows)).toEqual({
      rows,
      ids: ['0199f0aa-0000-7000-8000-000000000001'],
      statuses: ['ManuallyAllocated'],
    });
  });
});

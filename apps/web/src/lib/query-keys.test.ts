import { describe, expect, it } from 'vitest';
import {
  companyAreas,
  companyQueryKeys,
  companyRootKey,
  tenantAreas,
  tenantQueryKeys,
} from './query-keys';
import { setCompanyId } from './storage';

describe('query keys', () => {
  it('names each area once', () => {
    expect(new Set(tenantAreas).size).toBe(tenantAreas.length);
    expect(new Set(companyAreas).size).toBe(companyAreas.length);
  });

  it("leads a company area's keys with the company root and the company id", () => {
    setCompanyId(7);
    expect(companyQueryKeys('accounts').detail('a')).toEqual([
      'company',
      7,
      'accounts',
      'detail',
      'a',
    ]);
    expect(companyQueryKeys('accounts').all().slice(0, 1)).toEqual(companyRootKey());
    expect(tenantQueryKeys('geo-data').all()).toEqual(['geo-data']);
  });
});

import { describe, expect, it } from 'vitest';
import { isCompanySwitcherHidden, parentPathIfRecord } from './company-path';

describe('path after choosing a company', () => {
  it('leaves a record page (path ending in a GUID) for its parent path', () => {
    expect(parentPathIfRecord('/payment-transactions/0192f3a4-5b6c-7d8e-9f01-23456789abcd')).toBe(
      '/payment-transactions',
    );
    expect(
      parentPathIfRecord(
        '/accounts/0192F3A4-5B6C-7D8E-9F01-23456789ABCD/payers/0192f3a4-5b6c-7d8e-9f01-23456789abce/',
      ),
    ).toBe('/accounts/0192F3A4-5B6C-7D8E-9F01-23456789ABCD/payers');
  });

  it('stays on other pages', () => {
    expect(parentPathIfRecord('/payment-transactions')).toBeNull();
    expect(parentPathIfRecord('/settings/companies/12')).toBeNull();
    expect(parentPathIfRecord('/')).toBeNull();
  });
});

describe('company dropdown visibility', () => {
  it('is hidden on the access keys, companies, users and web hooks pages', () => {
    for (const path of [
      '/settings/access-keys',
      '/settings/companies',
      '/settings/companies/3',
      '/settings/users',
      '/settings/web-hooks',
    ]) {
      expect(isCompanySwitcherHidden(path)).toBe(true);
    }
    expect(isCompanySwitcherHidden('/')).toBe(false);
    expect(isCompanySwitcherHidden('/settings/details')).toBe(false);
  });
});

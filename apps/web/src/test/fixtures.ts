import {
  defaultUserSetting,
  type Dataset,
  type Permission,
  type UserMe,
} from '@ledgerline/contract';

export function aUser(overrides: Partial<UserMe> = {}): UserMe {
  return {
    id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd',
    tenantId: '0192f3a4-0000-7000-8000-000000000001',
    tenantName: 'Acme Trading',
    userName: 'ada@acme.test',
    displayName: 'Ada Lovelace',
    forename: 'Ada',
    surname: 'Lovelace',
    emailAddress: 'ada@acme.test',
    role: 'Administrator',
    permissions: [] as Permission[],
    userSetting: { ...defaultUserSetting },
    ...overrides,
  };
}

export function aDataset(overrides: Partial<Dataset> = {}): Dataset {
  return {
    id: 1,
    name: 'Acme Ltd',
    shortName: null,
    description: null,
    status: 'Active',
    hostId: '1',
    customHostId: '1',
    hostSystemName: 'Default',
    currency: 'GBP',
    rebuildStatus: 'None',
    lastSync: null,
    copyFromDatasetId: null,
    type: 'Production',
    ...overrides,
  };
}

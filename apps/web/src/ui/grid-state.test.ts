import { describe, expect, it } from 'vitest';
import {
  applyGridState,
  buildGridFilter,
  defaultGridState,
  gridQuery,
  gridStateFromAddress,
  gridStorageKey,
  hasGridAddress,
  loadGridState,
  saveGridState,
  withGridAddress,
  type GridState,
} from './grid-state';

describe('grid filter string', () => {
  it('writes text contains, select equals, number at least and a whole-day date range', () => {
    expect(
      buildGridFilter({
        name: { type: 'text', value: ' Acme, Ltd ' },
        status: { type: 'select', value: 'Active' },
        id: { type: 'number', value: 3 },
        lastSync: { type: 'date', from: '2024-03-01', to: '2024-03-31' },
      }),
    ).toBe(
      'name ct Acme\\, Ltd,status eq Active,id ge 3,lastSync ge 2024-03-01,lastSync le 2024-03-31',
    );
  });

  it("leaves out empty filters and the select's 'All'", () => {
    expect(
      buildGridFilter({
        name: { type: 'text', value: '   ' },
        status: { type: 'select', value: '' },
        lastSync: { type: 'date', from: null, to: '2024-01-31' },
      }),
    ).toBe('lastSync le 2024-01-31');
  });

  it('becomes the paging parameters of a server-paged call', () => {
    expect(gridQuery(defaultGridState({ field: 'id', direction: 'asc' }))).toEqual({
      page: 1,
      itemsPerPage: 10,
      sort: 'id',
    });
    expect(
      gridQuery({
        page: 3,
        pageSize: 20,
        sort: { field: 'name', direction: 'desc' },
        filters: { type: { type: 'select', value: 'Demo' } },
        search: '',
      }),
    ).toEqual({ page: 3, itemsPerPage: 20, sort: '-name', filter: 'type eq Demo' });
  });
});

describe('client-side grid', () => {
  const people = [
    { name: 'bob', age: 30, joined: '2024-03-02T10:00:00Z' },
    { name: 'Alice', age: 41, joined: '2024-01-15T10:00:00Z' },
    { name: 'carol', age: 25, joined: null },
  ];
  const valueOf = (record: (typeof people)[number], field: string) =>
    record[field as keyof typeof record];

  it('sorts case-insensitively, pages and counts', () => {
    const state = { ...defaultGridState({ field: 'name', direction: 'asc' }), pageSize: 2 };
    expect(applyGridState(people, state, valueOf)).toEqual({
      items: [people[1], people[0]],
      totalItems: 3,
    });
    expect(applyGridState(people, { ...state, page: 2 }, valueOf).items).toEqual([people[2]]);
  });

  it('filters like the server', () => {
    const filtered = (filters: Parameters<typeof buildGridFilter>[0]) =>
      applyGridState(people, { ...defaultGridState(), filters }, valueOf).items;
    expect(filtered({ name: { type: 'text', value: 'AR' } })).toEqual([people[2]]);
    expect(filtered({ age: { type: 'number', value: 30 } })).toEqual([people[0], people[1]]);
    expect(filtered({ joined: { type: 'date', from: '2024-03-01', to: null } })).toEqual([
      people[0],
    ]);
  });
});

describe('grid state storage', () => {
  it('is kept per company and grid name', () => {
    const state = { ...defaultGridState(), page: 2 };
    saveGridState(gridStorageKey(2, 'users'), state);
    expect(loadGridState(gridStorageKey(2, 'users'))).toEqual(state);
    expect(loadGridState(gridStorageKey(1, 'users'))).toBeNull();
    expect(loadGridState(gridStorageKey(2, 'companies'))).toBeNull();
  });

  it('ignores a stored value it cannot read', () => {
    window.localStorage.setItem(gridStorageKey(1, 'users'), '{"page":"x"}');
    expect(loadGridState(gridStorageKey(1, 'users'))).toBeNull();
    window.localStorage.setItem(gridStorageKey(1, 'users'), 'not json');
    expect(loadGridState(gridStorageKey(1, 'users'))).toBeNull();
  });
});

describe('the view in the address', () => {
  const defaultSort = { field: 'statusDateTime', direction: 'desc' } as const;

  it('leaves the defaults out', () => {
    const params = withGridAddress(
      new URLSearchParams('tab=info'),
      defaultGridState(defaultSort),
      defaultSort,
    );
    expect(params.toString()).toBe('tab=info');
    expect(hasGridAddress(params)).toBe(false);
  });

  it('writes search, sort, page, page size and every kind of filter, and reads them back', () => {
    const state: GridState = {
      page: 3,
      pageSize: 20,
      sort: { field: 'totalAmount', direction: 'asc' },
      search: 'Acme, Ltd & co',
      filters: {
        customerName: { type: 'text', value: 'a:b' },
        type: { type: 'select', value: 'Payment' },
        status: { type: 'choices', values: ['Failed', 'Rejected'] },
        totalAmount: { type: 'number', value: 12.5 },
        statusDateTime: { type: 'date', from: '2026-01-01', to: null },
      },
    };
    const params = withGridAddress(
      new URLSearchParams('search=old&f.gone=ct:x&tab=1'),
      state,
      defaultSort,
    );
    expect(params.get('tab')).toBe('1');
    expect(params.get('f.gone')).toBeNull();
    expect(params.get('f.status')).toBe('in:Failed,Rejected');
    expect(params.get('sort')).toBe('totalAmount');
    expect(hasGridAddress(params)).toBe(true);
    // Through the address bar as text and back.
    expect(gridStateFromAddress(new URLSearchParams(params.toString()), defaultSort)).toEqual(
      state,
    );
  });

  it('ignores what it cannot read', () => {
    const state = gridStateFromAddress(
      new URLSearchParams('page=-2&pageSize=7&sort=a b&f.x=zz:1&f.y=ge:abc&f.z=day:soon..&f.w=in:'),
      defaultSort,
    );
    expect(state).toEqual(defaultGridState(defaultSort));
  });

  it('asks for several statuses as eq items the server takes as alternatives', () => {
    expect(
      gridQuery({
        ...defaultGridState(null),
        search: ' Acme ',
        filters: { status: { type: 'choices', values: ['Failed', 'Rejected'] } },
      }),
    ).toEqual({
      page: 1,
      itemsPerPage: 10,
      filter: 'status eq Failed,status eq Rejected',
      search: 'Acme',
    });
  });
});

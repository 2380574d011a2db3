import type { z } from 'zod';

/** The nine fields of an address (spec 2 §3), with the label their validation messages name. */
export const addressFieldLabels = {
  type: 'Address type',
  address1: 'Address 1',
  address2: 'Address 2',
  address3: 'Address 3',
  address4: 'Address 4',
  city: 'City',
  state: 'State',
  postCode: 'Post code',
  country: 'Country',
} as const;
export type AddressField = keyof typeof addressFieldLabels;
/** The fields in the order the forms and the OpenAPI document list them. */
export const addressFields = Object.keys(addressFieldLabels) as AddressField[];

/**
 * The one address shape: its nine fields, each made by `field` (nullable text in an answer, bounded
 * text in a body), so the accounts', transactions' and payment requests' addresses cannot drift.
 */
export function addressShape<T extends z.ZodType>(
  field: (label: string) => T,
  /** Labels a form shows otherwise (the payment request's contact says 'Type'). */
  labels: Partial<Record<AddressField, string>> = {},
): Record<AddressField, T> {
  return Object.fromEntries(
    addressFields.map((name) => [name, field(labels[name] ?? addressFieldLabels[name])]),
  ) as Record<AddressField, T>;
}

import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/http';
import { formPathOf, problemFieldErrors } from './form-errors';

const problemWith = (errors: Record<string, string[]>) =>
  new ApiError(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'One or more fields are invalid.', errors });

const accountRequest = {
  city: '',
  billingContact: { companyName: '', address: { city: '', postCode: '' } },
  deliveryContact: { address: { city: '' } },
};

// issue 21 item 23: a server error on a nested field lands on that nested field.
describe('the form field of a server error', () => {
  it('keeps a nested path the form holds, not its last part', () => {
    expect(formPathOf('billingContact.address.city', accountRequest)).toBe('billingContact.address.city');
    expect(formPathOf('deliveryContact.address.city', accountRequest)).toBe('deliveryContact.address.city');
  });

  it('finds the form path that holds an array body under a key', () => {
    expect(formPathOf('0.amount', { allocations: [{ amount: 1 }] })).toBe('allocations.0.amount');
  });

  it('drops the leading parts the form does not have (a contact form edits one contact)', () => {
    expect(formPathOf('billingContact.address.city', { address: { city: '' } })).toBe('address.city');
    expect(formPathOf('0.amount', { amount: '' })).toBe('amount');
  });

  it('falls back to the last part without the form’s values', () => {
    expect(formPathOf('body.email')).toBe('email');
    expect(formPathOf('amountToCapture')).toBe('amountToCapture');
  });

  it('lays a problem document’s messages onto the nested fields', () => {
    const error = problemWith({
      'billingContact.address.city': ['City must be at most 100 characters', 'another'],
      amountToPay: ['Amount must be greater than 0'],
    });
    expect(problemFieldErrors(error, { fields: { amountToPay: 0, ...accountRequest } })).toEqual({
      'billingContact.address.city': 'City must be at most 100 characters',
      amountToPay: 'Amount must be greater than 0',
    });
  });
});

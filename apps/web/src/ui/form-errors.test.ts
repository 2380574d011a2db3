import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/http';
import { failureMessage, formPathOf, problemFieldErrors } from './form-errors';

const problemWith = (errors: Record<string, string[]>) =>
  new ApiError(400, {
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail: 'One or more fields are invalid.',
    errors,
  });

const accountRequest = {
  city: '',
  billingContact: { companyName: '', address: { city: '', postCode: '' } },
  deliveryContact: { address: { city: '' } },
};

// A server error on a nested field lands on that nested field.
describe('the form field of a server error', () => {
  it('keeps a nested path the form holds, not its last part', () => {
    expect(formPathOf('billingContact.address.city', accountRequest)).toBe(
      'billingContact.address.city',
    );
    expect(formPathOf('deliveryContact.address.city', accountRequest)).toBe(
      'deliveryContact.address.city',
    );
  });

  it('finds the form path that holds an array body under a key', () => {
    expect(formPathOf('0.amount', { allocations: [{ amount: 1 }] })).toBe('allocations.0.amount');
  });

  it('drops the leading parts the form does not have (a contact form edits one contact)', () => {
    expect(formPathOf('billingContact.address.city', { address: { city: '' } })).toBe(
      'address.city',
    );
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

// Spec 2 §8: "a 403 shows a forbidden toast for the operation"; the spec's forbidden
// text is 'Forbidden request' (spec 1 §2.5, spec 3 §8).
describe('a failed action’s toast', () => {
  it('is the forbidden toast, not the generic failure, on a 403', () => {
    const refused = new ApiError(403, {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'This needs the CreateUsers permission.',
    });
    expect(failureMessage('An error occurred while creating the user: ', refused)).toBe(
      'Forbidden request',
    );
  });

  it('is the fixed beginning and the detail otherwise', () => {
    const conflict = new ApiError(409, {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'The e-mail address is in use.',
    });
    expect(failureMessage('An error occurred while creating the user: ', conflict)).toBe(
      'An error occurred while creating the user: The e-mail address is in use.',
    );
  });
});

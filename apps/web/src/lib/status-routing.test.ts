import { describe, expect, it } from 'vitest';
import { ApiError } from './http';
import { errorMessage, routeForError } from './status-routing';

const problem = (status: number, extra: object = {}) => ({
  type: 'about:blank',
  title: 'Problem',
  status,
  ...extra,
});

describe('status routing (spec 1 §8)', () => {
  it('starts the login flow on 401', () => {
    expect(routeForError(new ApiError(401, null))).toEqual({ kind: 'sign-in' });
  });

  it('goes to /error/{status} for 404, 502 and 503', () => {
    for (const status of [404, 502, 503]) {
      expect(routeForError(new ApiError(status, null))).toMatchObject({
        path: `/error/${status}`,
        forbidden: false,
      });
    }
  });

  it('goes to /error/403 with a forbidden toast when the code is not listed', () => {
    expect(routeForError(new ApiError(403, problem(403, { errorCode: '1000' })))).toMatchObject({
      path: '/error/403',
      forbidden: true,
    });
  });

  it('goes to the unknown error page without a response or for other statuses', () => {
    expect(
      routeForError(new ApiError(null, null, 'The server could not be reached.')),
    ).toMatchObject({
      path: '/error/unknown',
      detail: 'The server could not be reached.',
    });
    expect(routeForError(new ApiError(500, problem(500, { detail: 'Boom' })))).toMatchObject({
      path: '/error/unknown',
      detail: 'Boom',
    });
    expect(routeForError(new TypeError('x is undefined'))).toMatchObject({
      path: '/error/unknown',
    });
  });
});

describe('toast text (spec 1 §8)', () => {
  it('shows the detail, else "Item could not be found" for 404, else "An unknown error occurred"', () => {
    expect(errorMessage(new ApiError(400, problem(400, { detail: 'Name is required.' })))).toBe(
      'Name is required.',
    );
    expect(errorMessage(new ApiError(404, problem(404)))).toBe('Item could not be found');
    expect(errorMessage(new ApiError(500, problem(500)))).toBe('An unknown error occurred');
  });

  it('shows a plain error’s message', () => {
    expect(errorMessage(new Error('Logout not correct.'))).toBe('Logout not correct.');
  });
});

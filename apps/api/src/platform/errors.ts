/** Typed errors (style.md §5): one handler in problems.ts turns them into RFC 9457 documents. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail?: string,
    readonly extra: { errorCode?: string; errors?: Record<string, string[]> } = {},
  ) {
    super(detail ?? title);
  }
  get detail(): string {
    return this.message;
  }
}

export class ValidationError extends AppError {
  constructor(errors: Record<string, string[]>, detail = 'One or more fields are invalid.') {
    super(400, 'Bad Request', detail, { errors });
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = 'Sign-in is required.') {
    super(401, 'Unauthorized', detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail = 'You do not have permission to do this.', errorCode?: string) {
    super(403, 'Forbidden', detail, { errorCode });
  }
}

export class NotFoundError extends AppError {
  constructor(detail = 'The requested item was not found.') {
    super(404, 'Not Found', detail);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string, errorCode?: string) {
    super(409, 'Conflict', detail, { errorCode });
  }
}

export class UnprocessableError extends AppError {
  constructor(detail: string, errors?: Record<string, string[]>) {
    super(422, 'Unprocessable Content', detail, { errors });
  }
}

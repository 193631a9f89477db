export type ErrorCode =
  | 'VALIDATION'
  | 'UNAUTHORIZED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BAD_GATEWAY'
  | 'UNAVAILABLE'
  | 'INTERNAL';

// The public API answers a credential mismatch with 400 (spec §5, §7); 401 is the admin app's.
export const statusOf: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHORIZED: 400,
  UNAUTHENTICATED: 401,
  // Signed in, but the admin app's page or action is for admins only.
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // Something upstream (an image original) failed; the message says what.
  BAD_GATEWAY: 502,
  // Busy for now (with Retry-After): nothing was done.
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The one error type of Wolfpack. Every failure a person or a script can act on is an AppError
 * with a code from this fixed list; the server turns it into `{ error, code }` with the status
 * from {@link HTTP_STATUS_BY_CODE}, web and CLI show `message` as it is.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE',
  'TOO_MANY_REQUESTS',
  'INTERNAL',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Single source of truth from error code to HTTP status. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
};

/** Extra, machine-readable facts about an error (zod issues, retry time). Never secrets. */
export interface AppErrorDetails {
  issues?: Array<{ path: string; message: string }>;
  retryAfterSeconds?: number;
  /** njin: why each candidate patch failed, when none passed (422). */
  candidates?: Array<{ engine: string; passed: boolean; failedChecks: string[] }>;
  /** PAYMENT_REQUIRED for credits: what the stage needed, so the message can be told again with the balance once holds are back. */
  neededCents?: number;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly details: AppErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: AppErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}

/** Maps an HTTP status back to the closest code, for clients that receive an error reply. */
export function codeForStatus(status: number): ErrorCode {
  const found = ERROR_CODES.find((code) => HTTP_STATUS_BY_CODE[code] === status);
  if (found) return found;
  return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export interface FieldError {
  field: string;
  message: string;
}

/** Normalised error of every API call (the server's error envelope, or a transport failure). */
export interface ApiError {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  message: string;
  code?: string;
  /** The envelope's specific `code` (e.g. `edit_conflict`), where the server sends one. */
  detail?: string;
  errors?: FieldError[];
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

export function isApiError(value: unknown): value is ApiError {
  return !!value && typeof value === 'object' && 'status' in value && 'message' in value;
}

/** Message to show for a failed call: the server's message when present, else the fallback. */
export function errorMessage(error: unknown, fallback = 'Unknown error'): string {
  if (isApiError(error) && error.message) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Build an ApiError from an HTTP status and the (possibly missing) error envelope. */
export function toApiError(status: ApiError['status'], body: unknown): ApiError {
  const env = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const message =
    typeof env.message === 'string' && env.message
      ? env.message
      : typeof status === 'number'
        ? `API request failed with status ${status}`
        : 'Network error. Please try again.';
  const errors = Array.isArray(env.errors)
    ? (env.errors as FieldError[]).filter((e) => e && typeof e.field === 'string')
    : undefined;
  const detail = typeof env.code === 'string' ? env.code : undefined;
  return { status, message, code: typeof env.error === 'string' ? env.error : undefined, ...(detail ? { detail } : {}), errors };
}

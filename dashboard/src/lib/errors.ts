import type { components } from './api-types/dashboard';

type ErrorEnvelope = components['schemas']['ErrorOut'];
export type FieldError = NonNullable<ErrorEnvelope['errors']>[number];

/** The envelope's specific `code` (docs/api/index.md: Error codes): the one thing to switch on. */
export type ErrorCode = NonNullable<ErrorEnvelope['code']>;

/** Normalised error of every API call (the server's error envelope, or a transport failure). */
export interface ApiError {
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  message: string;
  /** The envelope's `error`: the contract's kind (`conflict`, `validation_error`, ...). */
  kind?: string;
  /** The envelope's `code`, where the server tells cases of one kind apart. */
  code?: ErrorCode;
  errors?: FieldError[];
  /** `two_factor_required` (the login's 403): the challenge of the sign-in's second step. */
  challengeToken?: string;
  /** `two_factor_required`: seconds the challenge stays valid. */
  expiresIn?: number;
  /** `translations_exist` (409 of deleting a default-language post): the post's translations. */
  translations?: TranslationRef[];
}

/** One translation of a post named by a `translations_exist` refusal. */
export interface TranslationRef {
  language: string;
  id: string;
  slug: string;
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

export function isApiError(value: unknown): value is ApiError {
  return !!value && typeof value === 'object' && 'status' in value && 'message' in value;
}

/** The envelope's `code` of a failed call, if it sent one. */
export function errorCode(error: unknown): ErrorCode | undefined {
  return isApiError(error) ? error.code : undefined;
}

/** Whether a failed call was refused by the company's plan (`plan_limit`, `plan_expired`: components/PlanNotice). */
export function isPlanRefusal(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'plan_limit' || code === 'plan_expired' || code === 'plan_feature';
}

/** The server's message about one field of a failed call (`errors`), if it sent one. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  return isApiError(error) ? error.errors?.find((e) => e.field === field)?.message : undefined;
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
  return {
    status,
    message,
    kind: typeof env.error === 'string' ? env.error : undefined,
    code: typeof env.code === 'string' ? (env.code as ErrorCode) : undefined,
    errors,
    ...(typeof env.challengeToken === 'string' ? { challengeToken: env.challengeToken } : {}),
    ...(typeof env.expiresIn === 'number' ? { expiresIn: env.expiresIn } : {}),
    ...(Array.isArray(env.translations)
      ? {
          translations: (env.translations as TranslationRef[]).filter(
            (t) => t && typeof t.language === 'string' && typeof t.id === 'string',
          ),
        }
      : {}),
  };
}

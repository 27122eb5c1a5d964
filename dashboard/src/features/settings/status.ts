import type { ClientInfo } from '@/api/company';

/** Company states in which the content API does not answer. */
const DOWN_STATES = ['suspended', 'inactive', 'cancelled', 'canceled', 'closed'];

export function apiDown(company: ClientInfo['company']): boolean {
  return DOWN_STATES.includes(company.status);
}

/** The header that carries the API key. */
export function keyHeader(apiInfo: ClientInfo['apiInfo']): string {
  return apiInfo.authentication.header || 'x-api-key';
}

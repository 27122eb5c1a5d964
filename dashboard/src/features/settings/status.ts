import type { ClientInfo } from '@/api/company';

/** The content API does not answer for a suspended company. */
export function apiDown(company: ClientInfo['company']): boolean {
  return company.status === 'suspended';
}

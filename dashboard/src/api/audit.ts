import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];
export type AuditEntry = Schemas['AuditEntryOut'];
export type AuditList = Schemas['AuditListOut'];

export interface AuditFilters {
  user?: string;
  action?: string;
  objectType?: string;
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

/** The audit log: who did what, when, and from where (admins). */
export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAudit: build.query<AuditList, AuditFilters>({
      query: (filters) => ({
        url: 'audit',
        params: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')),
      }),
      providesTags: [{ type: 'User', id: 'AUDIT' }],
    }),
  }),
});

export const { useGetAuditQuery } = auditApi;

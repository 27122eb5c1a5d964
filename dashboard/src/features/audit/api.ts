import { api } from '@/lib/api';

export interface AuditEntry {
  id: string;
  createdAt: string;
  action: string;
  actionLabel: string;
  userId: string | null;
  username: string;
  objectType: string;
  objectId: string;
  summary: string;
  clientHash: string;
}

export interface AuditFilters {
  user?: string;
  action?: string;
  objectType?: string;
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

export interface AuditList {
  entries: AuditEntry[];
  actions: { value: string; label: string }[];
  pagination: { total: number; totalPages: number; currentPage: number; limit: number };
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAudit: build.query<AuditList, AuditFilters>({
      query: (filters) => ({
        url: 'audit',
        params: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')),
      }),
      providesTags: [{ type: 'User', id: 'AUDIT' }],
    }),
    // The people the "User" filter offers (admins read the users list).
    getAuditUsers: build.query<{ id: string; username: string }[], void>({
      query: () => 'users',
      transformResponse: (r: { users?: { id: string; username: string }[] }) =>
        (r.users ?? []).map((u) => ({ id: String(u.id), username: u.username })),
      providesTags: [{ type: 'User', id: 'LIST' }],
    }),
  }),
});

export const { useGetAuditQuery, useGetAuditUsersQuery } = auditApi;

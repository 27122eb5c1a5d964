import { createSelector } from '@reduxjs/toolkit';
import { useSelector } from 'react-redux';
import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** A member: one of the company's readers (never a user of the dashboard), with labels and
 * newsletter subscriptions. */
export type Member = Schemas['MemberOut'];
export type MemberLabel = Schemas['LabelOut'];
export type LabelWithCount = Schemas['LabelCountOut'];
export type MemberNewsletter = Schemas['MemberNewsletterOut'];
export type MemberImport = Schemas['MemberImportOut'];
export type ImportCounts = Schemas['ImportCountsOut'];
export type MemberStatus = Member['status'];

/** A new member; `newsletters` left out: the company's default newsletters. */
export type MemberBody = Schemas['MemberIn'];
/** A change: what is left out stays as it is; `emailDisabled: false` sends to the address again. */
export type MemberChanges = Schemas['MemberUpdateIn'];

/** The list's filters (each optional): `label` a label's id, `newsletter` a newsletter's id or
 * `none` (subscribed to none). */
export interface MemberFilters {
  search?: string;
  label?: string;
  status?: '' | MemberStatus;
  newsletter?: string;
}

export interface MemberPage {
  members: Member[];
  total: number;
  totalPages: number;
  page: number;
}

export const NO_NEWSLETTER = 'none';

/** Only the filters that are set, as the list and the export take them. */
export function filterParams(filters: MemberFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['search', 'label', 'status', 'newsletter'] as const) {
    const value = filters[key]?.trim();
    if (value) out[key] = value;
  }
  return out;
}

const LIST = { type: 'Member' as const, id: 'LIST' };
const LABELS = { type: 'MemberLabel' as const, id: 'LIST' };

/** Members (members.read to read; members.manage to change, import and export). */
export const membersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMembers: build.query<MemberPage, MemberFilters & { page: number; limit: number }>({
      query: ({ page, limit, ...filters }) => ({ url: 'members', params: { ...filterParams(filters), page, limit } }),
      transformResponse: (r: Schemas['MemberListOut']) => ({
        members: r.members,
        total: r.pagination.total,
        totalPages: r.pagination.totalPages,
        page: r.pagination.currentPage,
      }),
      providesTags: (result) => [LIST, ...(result?.members ?? []).map((m) => ({ type: 'Member' as const, id: m.id }))],
    }),
    getMember: build.query<Member, string>({
      query: (id) => `members/${id}`,
      transformResponse: (r: Schemas['MemberReplyOut']) => r.member,
      providesTags: (_r, _e, id) => [{ type: 'Member', id }],
    }),
    createMember: build.mutation<Schemas['MemberSavedOut'], MemberBody>({
      query: (body) => ({ url: 'members', method: 'POST', body }),
      invalidatesTags: [LIST, LABELS],
    }),
    updateMember: build.mutation<Schemas['MemberSavedOut'], { id: string; body: MemberChanges }>({
      query: ({ id, body }) => ({ url: `members/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [LIST, LABELS, { type: 'Member', id }],
    }),
    deleteMember: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `members/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST, LABELS],
    }),
    labelMembers: build.mutation<Schemas['BulkLabelOut'], Schemas['BulkLabelIn']>({
      query: (body) => ({ url: 'members/bulk/labels', method: 'POST', body }),
      invalidatesTags: ['Member', LABELS],
    }),
    getMemberLabels: build.query<LabelWithCount[], void>({
      query: () => 'members/labels',
      transformResponse: (r: Schemas['LabelListOut']) => r.labels,
      providesTags: [LABELS],
    }),
    /** A link to the CSV (Ghost's members format) of the members the filters name. */
    exportMembers: build.mutation<{ url: string; fileName: string }, MemberFilters>({
      query: (filters) => ({ url: 'members/export', params: filterParams(filters) }),
    }),
    uploadMemberImport: build.mutation<Schemas['MemberImportReplyOut'], { file: File; labels: string[] }>({
      query: ({ file, labels }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        form.append('labels', labels.join(','));
        return { url: 'members/imports', method: 'POST', body: form };
      },
    }),
    getMemberImport: build.query<MemberImport, string>({
      query: (id) => `members/imports/${id}`,
      transformResponse: (r: Schemas['MemberImportReplyOut']) => r.job,
    }),
    startMemberImport: build.mutation<Schemas['MemberImportReplyOut'], string>({
      query: (id) => ({ url: `members/imports/${id}/start`, method: 'POST' }),
    }),
  }),
});

export const {
  useGetMembersQuery,
  useGetMemberQuery,
  useCreateMemberMutation,
  useUpdateMemberMutation,
  useDeleteMemberMutation,
  useLabelMembersMutation,
  useGetMemberLabelsQuery,
  useExportMembersMutation,
  useUploadMemberImportMutation,
  useGetMemberImportQuery,
  useStartMemberImportMutation,
} = membersApi;

/** The members and labels change once an import completes: read again. */
export function invalidateAfterMemberImport() {
  return api.util.invalidateTags(['Member', 'MemberLabel']);
}

interface CachedQuery {
  endpointName?: string;
  data?: unknown;
}

type CacheState = { [api.reducerPath]: { queries: Record<string, CachedQuery | undefined> } };

/**
 * The newsletters the dashboard has seen on members (the dashboard API lists no newsletters of its
 * own): the choices of the newsletter filter and of a member's subscriptions, by name.
 */
const selectKnownNewsletters = createSelector(
  [(state: CacheState) => state[api.reducerPath].queries],
  (queries): MemberNewsletter[] => {
    const found = new Map<string, MemberNewsletter>();
    const add = (member: Member) => member.newsletters.forEach((n) => found.set(n.id, n));
    for (const query of Object.values(queries)) {
      if (query?.endpointName === 'getMembers' && query.data) (query.data as MemberPage).members.forEach(add);
      if (query?.endpointName === 'getMember' && query.data) add(query.data as Member);
    }
    return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  },
);

export function useKnownNewsletters(): MemberNewsletter[] {
  return useSelector(selectKnownNewsletters);
}

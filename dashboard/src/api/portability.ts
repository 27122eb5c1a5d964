import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];
export type ImportJob = Schemas['ImportJobOut'];
export type PostMissingImages = Schemas['PostMissingImagesOut'];
export type MissingImage = Schemas['MissingImageOut'];

/** Counts per kind and outcome: {post: {create: 58}, author: {matched: 1}}. */
export type ImportCounts = Record<string, Record<string, number>>;

/** One item named with why (a slug taken, a post made a draft or members-only, a skipped menu item). */
export interface ImportPlanItem {
  kind: string;
  item: string;
  reason: string;
}

/** One of the plan's counted limits: what the import takes beside what the company uses and
 *  what its plan allows (`importUses` null: not known before the import, as downloaded images). */
export interface ImportPlanUse {
  limit: string;
  importUses: number | null;
  used: number;
  allowed: number | null;
  fits: boolean;
}

/**
 * The dry run (`ImportJobOut.plan`, an object the OpenAPI document leaves open): the shape of
 * apps.portability.importer.blog_analyse. Every field is optional: a dry run made by an earlier
 * version of the server lacks the newer ones.
 */
export interface ImportPlan {
  counts?: ImportCounts;
  conflicts?: ImportPlanItem[];
  unsupported?: { shortcode: string; posts: number }[];
  skipped?: ImportPlanItem[];
  /** Posts only their site's staff could read in the source (WordPress private posts): drafts here. */
  madeDrafts?: ImportPlanItem[];
  /** Posts for readers only in the source (Ghost members, paid or tiers; WordPress password-protected):
   *  members-only here, their status kept (docs/content.md#members-only-posts). */
  madeMembersOnly?: ImportPlanItem[];
  /** What the sanitiser takes out of each post: "script", "iframe (ads.example)", "font ×2". */
  contentRemoved?: { kind: string; item: string; removed: string[] }[];
  notBroughtOver?: { kind: string; count: number; why: string }[];
  images?: { referenced: number; inArchive: number; alreadyImported: number; toDownload: number; archiveFiles: number };
  languages?: { used: string[]; add: string[]; unknown: string[]; default: string | null; groups: number };
  planUse?: ImportPlanUse[];
  accounts?: { create: number; emailed: boolean; message: string };
}

/** The report of a completed import (`ImportJobOut.report`). */
export interface ImportReport {
  counts?: ImportCounts;
  items?: (ImportPlanItem & { outcome: string })[];
  notBroughtOver?: { kind: string; count: number; why: string }[];
  /** Images the posts still name by their old address (listed by `getMissingImages`). */
  imagesKeptAsAddress?: number;
}

export const importPlan = (job: ImportJob) => job.plan as ImportPlan;
export const importReport = (job: ImportJob) => job.report as ImportReport;

/** Blog import (admins): upload (the export and its optional images archive) and dry run, start,
 *  progress, the report as CSV, the images it could not bring and fetching them again. */
export const portabilityApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadImport: build.mutation<Schemas['ImportReplyOut'], { file: File; images?: File | null }>({
      query: ({ file, images }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        if (images) form.append('images', images, images.name);
        return { url: 'imports', method: 'POST', body: form };
      },
    }),
    getImports: build.query<ImportJob[], void>({
      query: () => ({ url: 'imports', params: { limit: 10 } }),
      transformResponse: (r: Schemas['ImportListOut']) => r.jobs,
    }),
    getImport: build.query<Schemas['ImportReplyOut'], string>({
      query: (id) => `imports/${id}`,
    }),
    startImport: build.mutation<Schemas['ImportReplyOut'], { id: string; downloadImages: boolean; inviteAuthors: boolean }>({
      query: ({ id, downloadImages, inviteAuthors }) => ({
        url: `imports/${id}/start`,
        method: 'POST',
        body: { downloadImages, inviteAuthors },
      }),
    }),
    /** The images an import could not bring, per post. */
    getMissingImages: build.query<PostMissingImages[], { job: string }>({
      query: ({ job }) => ({ url: 'imports/missing-images', params: { job } }),
      transformResponse: (r: Schemas['MissingImagesOut']) => r.posts,
    }),
    /** Queue "Fetch missing images" of an import (a background job). */
    fetchMissingImages: build.mutation<Schemas['ImportReplyOut'], string>({
      query: (id) => ({ url: `imports/${id}/fetch-missing`, method: 'POST' }),
    }),
    requestExport: build.mutation<Schemas['ExportReplyOut'], void>({
      query: () => ({ url: 'exports', method: 'POST' }),
    }),
    getExport: build.query<Schemas['ExportReplyOut'], string>({
      query: (id) => `exports/${id}`,
    }),
    importReportCsv: build.mutation<Schemas['ImportReportOut'], string>({
      query: (id) => ({ url: `imports/${id}/report` }),
    }),
  }),
});

export const {
  useUploadImportMutation,
  useGetImportsQuery,
  useGetImportQuery,
  useStartImportMutation,
  useGetMissingImagesQuery,
  useFetchMissingImagesMutation,
  useImportReportCsvMutation,
  useRequestExportMutation,
  useGetExportQuery,
} = portabilityApi;

/** Posts, terms and media change when an import completes: the lists are read again. */
export function invalidateAfterImport() {
  return api.util.invalidateTags(['Post', 'Category', 'Tag', 'Media', 'User', 'Dashboard']);
}

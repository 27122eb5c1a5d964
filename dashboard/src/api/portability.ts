import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];
export type ImportJob = Schemas['ImportJobOut'];

/** Blog import (admins): upload and dry run, start, progress, the report as CSV. */
export const portabilityApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadImport: build.mutation<Schemas['ImportReplyOut'], File>({
      query: (file) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return { url: 'imports', method: 'POST', body: form };
      },
    }),
    getImport: build.query<Schemas['ImportReplyOut'], string>({
      query: (id) => `imports/${id}`,
    }),
    startImport: build.mutation<Schemas['ImportReplyOut'], { id: string; downloadImages: boolean }>({
      query: ({ id, downloadImages }) => ({ url: `imports/${id}/start`, method: 'POST', body: { downloadImages } }),
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
  useGetImportQuery,
  useStartImportMutation,
  useImportReportCsvMutation,
  useRequestExportMutation,
  useGetExportQuery,
} = portabilityApi;

/** Posts, terms and media change when an import completes: the lists are read again. */
export function invalidateAfterImport() {
  return api.util.invalidateTags(['Post', 'Category', 'Tag', 'Media', 'User', 'Dashboard']);
}

import { useCallback } from 'react';
import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { useAppDispatch } from '@/lib/hooks';

type Schemas = components['schemas'];

/** What the AI writes: a blog draft, or the SEO fields of a post. */
export type BlogContent = Schemas['BlogDraftOut'];
export type SeoSuggestion = Schemas['SeoDraftOut'];

export interface AiJob<T = unknown> extends Omit<Schemas['JobOut'], 'data'> {
  data?: T;
}

/** Reply of a generate call: the result at once, or (202) a job still running on the worker. */
export interface AiReply<T> {
  success?: boolean;
  message?: string;
  data?: T;
  job?: Pick<AiJob<T>, 'id' | 'kind' | 'status'>;
}

export interface BlogRequest {
  inputContent: string;
  tone: string;
  targetAudience: string;
  contentType: 'blog';
}

export const aiApi = api.injectEndpoints({
  endpoints: (build) => ({
    generateBlog: build.mutation<AiReply<BlogContent>, BlogRequest>({
      query: (body) => ({ url: 'ai/generate-blog', method: 'POST', body }),
    }),
    generateSeo: build.mutation<AiReply<SeoSuggestion>, { title: string; content: string; excerpt: string }>({
      query: (body) => ({ url: 'ai/generate-seo', method: 'POST', body }),
    }),
    getAiJob: build.query<AiJob, string>({
      query: (id) => `ai/jobs/${id}`,
      transformResponse: (r: { job: AiJob }) => r.job,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGenerateBlogMutation, useGenerateSeoMutation } = aiApi;

export const AI_POLL_INTERVAL_MS = 1000;
export const AI_POLL_TIMEOUT_MS = 120_000;

/** Resolve a generate reply to its data, polling GET ai/jobs/{id} while the job runs. */
export function useAiResult() {
  const dispatch = useAppDispatch();
  return useCallback(
    async <T,>(reply: AiReply<T>, opts: { intervalMs?: number; timeoutMs?: number } = {}): Promise<T | undefined> => {
      if (reply.data !== undefined || !reply.job?.id) return reply.data;
      const interval = opts.intervalMs ?? AI_POLL_INTERVAL_MS;
      const deadline = Date.now() + (opts.timeoutMs ?? AI_POLL_TIMEOUT_MS);
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, interval));
        const request = dispatch(aiApi.endpoints.getAiJob.initiate(reply.job.id, { forceRefetch: true, subscribe: false }));
        const job = (await request.unwrap()) as AiJob<T>;
        if (job.status === 'succeeded') return job.data;
        if (job.status === 'failed') throw new Error(job.message || 'Generation failed');
      }
      throw new Error('The AI service is taking too long. Please try again.');
    },
    [dispatch],
  );
}

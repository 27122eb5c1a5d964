import { api } from '@/lib/api';
import type { AiReply } from '@/lib/aiApi';

export interface BlogContent {
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  focusKeyword: string;
  tags: string[];
  categories: string[];
}

export interface BlogRequest {
  inputContent: string;
  tone: string;
  targetAudience: string;
  contentType: 'blog';
}

export const aiGeneratorApi = api.injectEndpoints({
  endpoints: (build) => ({
    generateBlog: build.mutation<AiReply<BlogContent>, BlogRequest>({
      query: (body) => ({ url: 'ai/generate-blog', method: 'POST', body }),
    }),
  }),
});

export const { useGenerateBlogMutation } = aiGeneratorApi;

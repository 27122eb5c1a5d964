import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { rowPath, type ContentCollection } from './posts';

type Schemas = components['schemas'];
export type Languages = Schemas['LanguagesOut'];
export type Language = Schemas['LanguageOut'];
export type Translation = Schemas['TranslationOut'];

export interface LanguagesPayload {
  languages: string[];
  defaultLanguage: string;
  fallbacks: Record<string, string[]>;
}

const LANGUAGES = { type: 'Client' as const, id: 'LANGUAGES' };
const postTags = (id: string) => [{ type: 'Post' as const, id }, { type: 'Post' as const, id: 'LIST' }];

/** A company's languages (settings) and a post's translations: "Add translation" (a draft copy)
 * and "Translate with AI" (a draft made on the AI job queue). */
export const translationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLanguages: build.query<Languages, void>({
      query: () => 'client/languages',
      providesTags: [LANGUAGES],
    }),
    updateLanguages: build.mutation<Languages, LanguagesPayload>({
      query: (body) => ({ url: 'client/languages', method: 'PUT', body }),
      invalidatesTags: [LANGUAGES, { type: 'Post', id: 'LIST' }],
    }),
    addTranslation: build.mutation<Schemas['PostSavedOut'], { id: string; language: string; kind?: ContentCollection }>({
      query: ({ id, language, kind = 'posts' }) => ({ url: `${rowPath({ kind, id })}/translations`, method: 'POST', body: { language } }),
      invalidatesTags: (_r, _e, { id }) => postTags(id),
    }),
    translateWithAi: build.mutation<Schemas['TranslationGeneratedOut'], { id: string; language: string }>({
      query: ({ id, language }) => ({ url: 'ai/translate-post', method: 'POST', body: { postId: id, language } }),
      invalidatesTags: (_r, _e, { id }) => postTags(id),
    }),
  }),
});

export const { useGetLanguagesQuery, useUpdateLanguagesMutation, useAddTranslationMutation, useTranslateWithAiMutation } =
  translationsApi;

/** The company's languages other than its default (what a category, tag or media item can carry a
 * translated name or alt text for), and the default's name. Empty for a company with one language
 * (and while the languages load), so the forms show no translation fields then. */
export function useOtherLanguages(): { others: Language[]; defaultName: string } {
  const { data } = useGetLanguagesQuery();
  const languages = data?.languages ?? [];
  const fallback = data?.defaultLanguage ?? '';
  return {
    others: languages.filter((language) => language.code !== data?.defaultLanguage),
    defaultName: languages.find((language) => language.code === fallback)?.name ?? fallback,
  };
}

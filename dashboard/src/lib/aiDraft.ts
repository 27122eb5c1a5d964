/**
 * AI-generated content handed from the AI Blog Generator to the create-post form through
 * session storage ('Save for Later' / 'Create New Post'); the form consumes it once.
 */
export const AI_DRAFT_KEY = 'aiGeneratedContent';

export interface AiDraft {
  postTitle?: string;
  postContent?: string;
  postExcerpt?: string;
  customSlug?: string;
  seoMetadata?: { title?: string; description?: string; canonicalUrl?: string; focusKeyword?: string };
  tags?: string[];
  categories?: string[];
  videoId?: string;
  videoRecommendations?: unknown[];
}

export function saveAiDraft(draft: AiDraft, storage: Storage = sessionStorage): void {
  storage.setItem(AI_DRAFT_KEY, JSON.stringify(draft));
}

/** The stored draft without removing it (null when there is none or it is unreadable). */
export function peekAiDraft(storage: Storage = sessionStorage): AiDraft | null {
  const raw = storage.getItem(AI_DRAFT_KEY);
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as AiDraft;
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

export function discardAiDraft(storage: Storage = sessionStorage): void {
  storage.removeItem(AI_DRAFT_KEY);
}

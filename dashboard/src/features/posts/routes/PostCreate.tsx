import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useCreatePostMutation, useRequestReviewMutation } from '@/api/posts';
import { LoadingState } from '@/components/LoadingState';
import { toastFailure } from '@/components/notify';
import { PageHeader } from '@/components/PageHeader';
import { discardAiDraft, peekAiDraft, type AiDraft } from '@/lib/aiDraft';
import { isApiError } from '@/lib/errors';
import { todayIso } from '@/lib/format';
import { parseYouTubeId } from '@/lib/youtube';
import { usePostFormRights } from '../hooks/usePostFormRights';
import { POST, useKind } from '../kinds';
import { PostForm } from '../components/PostForm';
import { listPathFor, rewriteSaveError, toCreatePayload } from '../payload';
import type { PostFormValues } from '../schemas';

export function emptyPost(): PostFormValues {
  return {
    title: '',
    content: '',
    excerpt: '',
    status: 'draft',
    categories: [],
    tags: [],
    featuredImage: null,
    slug: '',
    seoTitle: '',
    seoDescription: '',
    focusKeyword: '',
    canonicalUrl: '',
    publishDate: todayIso(),
    videoId: '',
    featured: false,
    visibility: 'public',
  };
}

function fromDraft(draft: AiDraft): PostFormValues {
  const base = emptyPost();
  return {
    ...base,
    title: draft.postTitle ?? '',
    content: draft.postContent ?? '',
    excerpt: draft.postExcerpt ?? '',
    slug: draft.customSlug ?? '',
    seoTitle: draft.seoMetadata?.title ?? '',
    seoDescription: draft.seoMetadata?.description ?? '',
    canonicalUrl: draft.seoMetadata?.canonicalUrl ?? '',
    focusKeyword: draft.seoMetadata?.focusKeyword ?? '',
    videoId: draft.videoId ? parseYouTubeId(draft.videoId) : '',
  };
}

/** A new post (or, mounted for pages, a new page). */
export function PostCreate() {
  const navigate = useNavigate();
  const kind = useKind();
  const [createPost, { isLoading }] = useCreatePostMutation();
  const [requestReview, { isLoading: requesting }] = useRequestReviewMutation();
  const { ready, readOnly, statusOptions } = usePostFormRights();
  // The AI generator's draft is a blog post: a new page leaves it for the next new post.
  const [draft] = useState(() => (kind === POST ? peekAiDraft() : null));
  const [defaults] = useState(() => (draft ? fromDraft(draft) : emptyPost()));
  const announced = useRef(false);

  // The AI draft is consumed once.
  useEffect(() => {
    if (!draft) return;
    discardAiDraft();
    if (announced.current) return;
    announced.current = true;
    const hasVideo = !!draft.videoId || (Array.isArray(draft.videoRecommendations) && draft.videoRecommendations.length > 0);
    toast.success(hasVideo ? 'AI-generated content loaded with video recommendations!' : 'AI-generated content loaded!');
  }, [draft]);

  async function save(values: PostFormValues) {
    try {
      const reply = await createPost({ ...toCreatePayload(values), kind: kind.api }).unwrap();
      if (values.status === 'review' && reply?.post?.id) {
        await requestReview({ kind: kind.api, id: reply.post.id }).unwrap();
        toast.success(`${kind.Noun} submitted for review`);
      } else {
        toast.success(reply?.message || `${kind.Noun} created successfully`);
      }
      navigate(listPathFor(values.status, kind.list));
      return undefined;
    } catch (err) {
      const message = isApiError(err) ? err.message : '';
      toastFailure(err, message ? rewriteSaveError(message) : `Failed to create ${kind.noun}`);
      return isApiError(err) ? err.errors : undefined;
    }
  }

  if (!ready) return <LoadingState label="Loading..." />;
  return (
    <>
      <PageHeader
        title={`Create New ${kind.Noun}`}
        description={kind === POST ? 'Write and publish a new blog post' : 'Write and publish a new page of your website'}
        search={false}
      />
      <PostForm
        mode="create"
        defaultValues={defaults}
        autosave={{ target: { kind: kind.api, id: 'new' } }}
        preselectNames={draft ? { categories: draft.categories ?? [], tags: draft.tags ?? [] } : undefined}
        submitting={isLoading || requesting}
        onSubmit={save}
        readOnly={readOnly}
        statusOptions={statusOptions}
      />
    </>
  );
}

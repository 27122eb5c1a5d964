import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Check, Copy, FilePlus, Save, Sparkles } from 'lucide-react';
import { toast } from 'sonner';
import { useAiResult, useGenerateBlogMutation, type BlogContent } from '@/api/ai';
import { useFeatureEnabled } from '@/api/company';
import { Card } from '@/components/Card';
import { FeatureOff } from '@/components/FeatureOff';
import { Field } from '@/components/Field';
import { capitalized, SelectField } from '@/components/form';
import { toastFailure } from '@/components/notify';
import { PageHeader } from '@/components/PageHeader';
import { Spinner } from '@/components/Spinner';
import { saveAiDraft, type AiDraft } from '@/lib/aiDraft';
import { copyText } from '@/lib/clipboard';
import { isApiError } from '@/lib/errors';
import { stripHtml } from '@/lib/format';

export const MIN_INPUT = 10;
export const PREVIEW_CHARS = 500;
export const COPY_RESET_MS = 2000;

const TONES = capitalized(['professional', 'casual', 'friendly', 'authoritative', 'conversational']);
const AUDIENCES = capitalized(['general', 'beginners', 'experts', 'business', 'technical']);

/** The spec's mapping of AI blog content to the create-post draft. */
export function toDraft(c: BlogContent): AiDraft {
  return {
    postTitle: c.title,
    postContent: c.content,
    postExcerpt: c.excerpt,
    customSlug: c.slug,
    seoMetadata: {
      title: c.metaTitle,
      description: c.metaDescription,
      canonicalUrl: c.canonicalUrl,
      focusKeyword: c.focusKeyword,
    },
    tags: c.tags ?? [],
    categories: c.categories ?? [],
  };
}

function CopyButton({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  async function copy() {
    if (!(await copyText(text))) return;
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_RESET_MS);
  }
  return (
    <button type="button" className="btn btn-ghost btn-icon" aria-label={`Copy ${label}`} onClick={copy} data-copied={copied}>
      {copied ? <Check size={14} className="text-success" /> : <Copy size={14} />}
    </button>
  );
}

function ResultField({ label, value }: { label: string; value: string }) {
  return (
    <div className="list-row" style={{ alignItems: 'flex-start' }}>
      <div className="grow">
        <div className="small muted">{label}</div>
        <div style={{ overflowWrap: 'anywhere' }}>{value || '—'}</div>
      </div>
      <CopyButton label={label} text={value} />
    </div>
  );
}

export function AiGenerator() {
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [tone, setTone] = useState('professional');
  const [audience, setAudience] = useState('general');
  const [touched, setTouched] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [result, setResult] = useState<BlogContent | null>(null);
  const [generate] = useGenerateBlogMutation();
  const resolve = useAiResult();
  const tooShort = input.trim().length < MIN_INPUT;
  const included = useFeatureEnabled('aiWriting');

  async function run() {
    setTouched(true);
    if (tooShort) return;
    setGenerating(true);
    try {
      const reply = await generate({ inputContent: input.trim(), tone, targetAudience: audience, contentType: 'blog' }).unwrap();
      if (!reply?.success) throw new Error(reply?.message || 'Failed to generate blog content');
      const data = await resolve(reply);
      if (!data) throw new Error('Failed to generate blog content');
      setResult(data);
      toast.success('Blog content generated successfully!');
    } catch (err) {
      if (isApiError(err)) {
        toastFailure(err, typeof err.status === 'number' ? err.message || 'Error generating content' : 'Network error. Please try again.');
      } else {
        toast.error(err instanceof Error && err.message ? err.message : 'Failed to generate blog content');
      }
    } finally {
      setGenerating(false);
    }
  }

  const text = result ? stripHtml(result.content) : '';
  const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}...` : text;

  return (
    <>
      <PageHeader title="AI Blog Generator" description="Turn a topic or notes into a full blog draft" search={false} />
      <FeatureOff feature="aiWriting" />
      <div className="grid-2" style={{ alignItems: 'start' }}>
        <section className="card card-body stack">
          <Field
            label="What should the post be about?"
            htmlFor="ai-input"
            error={touched && tooShort ? 'Please enter at least 10 characters of input content' : undefined}
            hint={`At least ${MIN_INPUT} characters`}
          >
            <textarea
              id="ai-input"
              className="textarea"
              style={{ minHeight: 180 }}
              placeholder="A topic, an outline or notes..."
              value={input}
              onChange={(e) => setInput(e.target.value)}
              onBlur={() => setTouched(input.length > 0)}
            />
          </Field>
          <div className="grid-2" style={{ gridTemplateColumns: '1fr 1fr' }}>
            <SelectField label="Tone" id="ai-tone" options={TONES} value={tone} onChange={(e) => setTone(e.target.value)} />
            <SelectField label="Target Audience" id="ai-audience" options={AUDIENCES} value={audience} onChange={(e) => setAudience(e.target.value)} />
          </div>
          <button type="button" className="btn btn-primary" onClick={run} disabled={tooShort || generating || !included}>
            {generating ? <Spinner small label="Generating" /> : <Sparkles size={16} />}
            {generating ? 'Generating...' : 'Generate Blog Post'}
          </button>
        </section>
        <Card title="Generated Content" body="plain" aria-label="Result">
          {generating ? (
            <div className="state">
              <Spinner />
              <span>Generating your blog post...</span>
            </div>
          ) : !result ? (
            <div className="state">
              <Sparkles size={28} aria-hidden="true" />
              <span>Your generated post will appear here.</span>
            </div>
          ) : (
            <div className="stack">
              <div>
                <ResultField label="Title" value={result.title} />
                <ResultField label="Excerpt" value={result.excerpt} />
                <ResultField label="Slug" value={result.slug} />
                <ResultField label="Meta Title" value={result.metaTitle} />
                <ResultField label="Meta Description" value={result.metaDescription} />
                <ResultField label="Focus Keyword" value={result.focusKeyword} />
                <ResultField label="Tags" value={(result.tags ?? []).join(', ')} />
                <ResultField label="Categories" value={(result.categories ?? []).join(', ')} />
                <div className="list-row" style={{ alignItems: 'flex-start' }}>
                  <div className="grow">
                    <div className="small muted">Content preview</div>
                    <p data-testid="content-preview" style={{ margin: 0 }}>
                      {preview}
                    </p>
                  </div>
                  <CopyButton label="Content" text={result.content} />
                </div>
              </div>
              <div className="row wrap">
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => {
                    saveAiDraft(toDraft(result));
                    toast.success('Content ready! Go to "Create New Post" to use it.');
                  }}
                >
                  <Save size={16} /> Save for Later
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => {
                    saveAiDraft(toDraft(result));
                    navigate('/dashboard/posts/new');
                  }}
                >
                  <FilePlus size={16} /> Create New Post
                </button>
              </div>
            </div>
          )}
        </Card>
      </div>
    </>
  );
}

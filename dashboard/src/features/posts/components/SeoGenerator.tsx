import { useState } from 'react';
import { Check, RefreshCw, Sparkles, X } from 'lucide-react';
import { toast } from 'sonner';
import { useAiResult, useGenerateSeoMutation } from '@/api/ai';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { stripHtml } from '@/lib/format';

export interface SeoResult {
  metaTitle: string;
  metaDescription: string;
  keywords: string;
}

export const SEO_CONTENT_LIMIT = 1000;

interface Props {
  getSource: () => { title: string; content: string; excerpt: string };
  onApply: (result: SeoResult) => void;
}

/** AI SEO generator: idle -> generating -> generated (apply, discard, regenerate). */
export function SeoGenerator({ getSource, onApply }: Props) {
  const [generate] = useGenerateSeoMutation();
  const resolve = useAiResult();
  const [generating, setGenerating] = useState(false);
  const [result, setResult] = useState<SeoResult | null>(null);
  const isLoading = generating;

  async function run() {
    const { title, content, excerpt } = getSource();
    const text = stripHtml(content).slice(0, SEO_CONTENT_LIMIT);
    if (!title.trim() && !text && !excerpt.trim()) {
      toast.error('Please add a title, content, or excerpt before generating SEO metadata.');
      return;
    }
    setGenerating(true);
    try {
      const reply = await generate({ title: title.trim(), content: text, excerpt: excerpt.trim() }).unwrap();
      const data = await resolve(reply);
      const keywords = Array.isArray(data?.keywords) ? data.keywords.join(', ') : (data?.keywords ?? '');
      if (!data?.metaTitle || !data?.metaDescription || !keywords) {
        toast.error('Incomplete SEO data generated');
        return;
      }
      setResult({ metaTitle: data.metaTitle, metaDescription: data.metaDescription, keywords });
    } catch (err) {
      toastError(err, 'Failed to generate SEO content. Please try again.');
    } finally {
      setGenerating(false);
    }
  }

  return (
    <div className="seo-suggestion stack" style={{ gap: 10 }} aria-live="polite">
      <div className="row-between">
        <strong className="row">
          <Sparkles size={16} aria-hidden="true" /> AI SEO Generator
        </strong>
        {!result ? (
          <button type="button" className="btn btn-primary btn-sm" onClick={run} disabled={isLoading}>
            {isLoading ? <Spinner small label="Generating" /> : <Sparkles size={14} />}
            {isLoading ? 'Generating...' : 'Generate SEO'}
          </button>
        ) : null}
      </div>
      {!result && !isLoading ? (
        <span className="small muted">Generate an SEO title, description and keywords from the post's title, content and excerpt.</span>
      ) : null}
      {result ? (
        <>
          <dl className="stack small" style={{ margin: 0, gap: 6 }}>
            <div>
              <dt className="muted">Meta Title</dt>
              <dd style={{ margin: 0 }}>{result.metaTitle}</dd>
            </div>
            <div>
              <dt className="muted">Meta Description</dt>
              <dd style={{ margin: 0 }}>{result.metaDescription}</dd>
            </div>
            <div>
              <dt className="muted">Keywords</dt>
              <dd style={{ margin: 0 }}>{result.keywords}</dd>
            </div>
          </dl>
          <div className="row wrap">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => {
                onApply(result);
                setResult(null);
              }}
            >
              <Check size={14} /> Apply
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setResult(null)}>
              <X size={14} /> Discard
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={run} disabled={isLoading}>
              {isLoading ? <Spinner small /> : <RefreshCw size={14} />} Regenerate
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}

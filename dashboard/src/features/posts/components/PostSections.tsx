import { useFormContext } from 'react-hook-form';
import { Tabs } from '@/components/Tabs';
import { FIELD_TAB, type PostFormValues } from '../schemas';
import { ContentSection } from './ContentSection';
import { SeoSection } from './SeoSection';
import { useKind } from '../kinds';

export type PostTab = 'content' | 'seo' | 'preview';

const TAB_FIELDS: Record<'content' | 'seo', (keyof PostFormValues)[]> = {
  content: (Object.keys(FIELD_TAB) as (keyof PostFormValues)[]).filter((k) => FIELD_TAB[k] === 'content' && k !== 'title'),
  seo: (Object.keys(FIELD_TAB) as (keyof PostFormValues)[]).filter((k) => FIELD_TAB[k] === 'seo'),
};

/** A tab's name, with a dot (and a description for screen readers) when a field in it is to correct. */
function TabLabel({ text, invalid, id }: { text: string; invalid: boolean; id: string }) {
  return (
    <>
      {text}
      {invalid ? (
        <>
          <span className="tab-error-dot" aria-hidden="true" />
          <span id={id} hidden>
            This section has a field to correct
          </span>
        </>
      ) : null}
    </>
  );
}

function PreviewSection() {
  const { getValues, watch } = useFormContext<PostFormValues>();
  const kind = useKind();
  const content = watch('content');
  return (
    <div className="stack" role="tabpanel" aria-label="Preview">
      <h2 style={{ fontSize: 26 }}>{getValues('title') || `Untitled ${kind.noun}`}</h2>
      {getValues('excerpt') ? <p className="muted">{getValues('excerpt')}</p> : null}
      <div className="prose" dangerouslySetInnerHTML={{ __html: content }} />
    </div>
  );
}

/** The editor's tabs: Content (text and excerpt), SEO, and a Preview of the post. */
export function PostSections({ tab, onTab, readOnly }: { tab: PostTab; onTab: (tab: PostTab) => void; readOnly: boolean }) {
  const kind = useKind();
  const {
    formState: { errors },
  } = useFormContext<PostFormValues>();
  const invalid = (t: 'content' | 'seo') => TAB_FIELDS[t].some((k) => !!errors[k]);
  const tabOf = (id: 'content' | 'seo', text: string) => ({
    id,
    label: <TabLabel text={text} invalid={invalid(id)} id={`tab-${id}-error`} />,
    describedBy: invalid(id) ? `tab-${id}-error` : undefined,
  });

  return (
    <>
      <Tabs<PostTab> label={`${kind.Noun} sections`} value={tab} onChange={onTab} tabs={[tabOf('content', 'Content'), tabOf('seo', 'SEO'), { id: 'preview', label: 'Preview' }]} />
      {tab === 'content' ? <ContentSection readOnly={readOnly} /> : null}
      {tab === 'seo' ? <SeoSection readOnly={readOnly} /> : null}
      {tab === 'preview' ? <PreviewSection /> : null}
    </>
  );
}

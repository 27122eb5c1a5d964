import { toast } from 'sonner';
import { useGetNewsletterSettingsQuery, useUpdateNewsletterSettingsMutation, type NewsletterSettings } from '@/api/newsletters';
import { useCan } from '@/api/session';
import { QueryState } from '@/components/QueryState';
import { toastError } from '@/components/notify';

const SWITCHES: { key: keyof NewsletterSettings; id: string; label: string; hint: string }[] = [
  {
    key: 'trackOpens',
    id: 'track-opens',
    label: 'Count opens',
    hint: 'Adds an invisible 1×1 image to each email: loading it records that this member opened it.',
  },
  {
    key: 'trackClicks',
    id: 'track-clicks',
    label: 'Count clicks',
    hint: 'Links in the email pass through this site first, which records the member’s click and sends them on to the link.',
  },
];

/** Settings → Newsletters: whether emails count their readers' opens and clicks (both off by default).
 *  Every role sees it; admins change it (newsletters.tracking); a change applies to sends that start
 *  from then on. */
export function TrackingSettings() {
  const canChange = useCan('newsletters.tracking');
  const settings = useGetNewsletterSettingsQuery();
  const [update, { isLoading: saving }] = useUpdateNewsletterSettingsMutation();

  async function save(key: keyof NewsletterSettings, on: boolean) {
    try {
      const reply = await update({ [key]: on }).unwrap();
      toast.success(reply.message || 'Saved');
    } catch (err) {
      toastError(err, 'Could not change the setting');
    }
  }

  return (
    <section className="card card-body stack" aria-labelledby="newsletter-tracking">
      <h2 id="newsletter-tracking" className="h-sub" style={{ margin: 0 }}>
        Opens and clicks
      </h2>
      <p style={{ margin: 0 }}>
        Off unless you turn them on. When on, each send&apos;s report shows how many members opened its email and clicked its links,
        and which links were clicked most. It records this for each member, so tell your readers in your privacy policy. Opens are
        approximate: some mail apps load images on their own (Apple Mail&apos;s privacy protection) or not at all.
      </p>
      <QueryState query={settings} compact loading="Loading the tracking settings" error="Failed to load the tracking settings">
        {(data) => (
          <>
            {SWITCHES.map((s) => (
              <div key={s.key} className="stack" style={{ gap: 2 }}>
                <label className="row" htmlFor={s.id} style={{ gap: 8, alignItems: 'center' }}>
                  <input
                    id={s.id}
                    type="checkbox"
                    checked={data[s.key]}
                    disabled={!canChange || saving}
                    aria-describedby={`${s.id}-hint`}
                    onChange={(e) => void save(s.key, e.target.checked)}
                  />
                  {s.label}
                </label>
                <span id={`${s.id}-hint`} className="small muted">
                  {s.hint}
                </span>
              </div>
            ))}
            <p className="small muted" style={{ margin: 0 }} role="status">
              {canChange
                ? 'A change applies to sends that start from now on; a send keeps what it counted when it started.'
                : 'Only administrators can change this.'}
            </p>
          </>
        )}
      </QueryState>
    </section>
  );
}

import { useEffect, useState } from 'react';
import { ImageDown } from 'lucide-react';
import {
  useFetchMissingImagesMutation,
  useGetMissingImagesQuery,
  type PostMissingImages,
} from '@/api/portability';
import { toastError } from '@/components/notify';
import { formatNumber } from '@/lib/format';
import { plural } from './labels';
import { ProgressBar } from './ProgressBar';

const ROLES: Record<string, string> = {
  content: 'in the content',
  featured_image: 'featured image',
  og_image: 'Open Graph image',
  twitter_image: 'X (Twitter) image',
};

/** How long the screen follows a "Fetch missing images" job before leaving it to the background. */
const FOLLOW_MS = 120_000;
const POLL_MS = 1000;

type Attempts = Map<string, number>;

const keyOf = (postId: string, role: string, url: string) => `${postId}\n${role}\n${url}`;

function attemptsOf(posts: PostMissingImages[]): Attempts {
  const found: Attempts = new Map();
  for (const post of posts) for (const image of post.images) found.set(keyOf(post.postId, image.role, image.url), image.attempts);
  return found;
}

/** Of the images missing when the fetch started: those brought (gone from the list) and those
 *  tried again and still missing (their attempts went up). */
function outcome(before: Attempts, now: Attempts) {
  let brought = 0;
  let failed = 0;
  for (const [key, attempts] of before) {
    const after = now.get(key);
    if (after === undefined) brought += 1;
    else if (after > attempts) failed += 1;
  }
  return { brought, failed, tried: brought + failed };
}

/**
 * After an import: the images it could not bring, per post (each post shows their old address
 * meanwhile), and "Fetch missing images", followed until every one has been tried again.
 */
export function MissingImages({ jobId }: { jobId: string }) {
  const [fetchMissing, fetching] = useFetchMissingImagesMutation();
  const [run, setRun] = useState<{ before: Attempts; started: number } | null>(null);
  const [result, setResult] = useState('');
  const query = useGetMissingImagesQuery({ job: jobId }, { pollingInterval: run ? POLL_MS : 0 });
  const posts = query.data;

  useEffect(() => {
    if (!run || !posts || query.isFetching) return;
    const now = attemptsOf(posts);
    const { brought, failed, tried } = outcome(run.before, now);
    const total = run.before.size;
    if (tried >= total) {
      setRun(null);
      setResult(
        failed === 0
          ? `Every missing image was brought (${plural(brought, 'image', 'images')}); the posts use them now.`
          : `${plural(brought, 'image', 'images')} brought; ${plural(failed, 'image is', 'images are')} still missing (why is listed below).`,
      );
    } else if (Date.now() - run.started > FOLLOW_MS) {
      setRun(null);
      setResult(
        `${plural(tried, 'image', 'images')} of ${formatNumber(total)} tried so far. The rest are still being fetched in the background: this list shows what is left when you come back.`,
      );
    }
  }, [run, posts, query.isFetching]);

  if (!posts) return null;
  const count = posts.reduce((n, post) => n + post.images.length, 0);
  if (!count && !run && !result) return null;

  async function onFetch() {
    if (!posts) return;
    setResult('');
    const before = attemptsOf(posts);
    const reply = await fetchMissing(jobId);
    if ('error' in reply) {
      toastError(reply.error, 'Could not fetch the missing images');
      return;
    }
    setRun({ before, started: Date.now() });
  }

  const progress = run ? outcome(run.before, attemptsOf(posts)) : null;

  return (
    <section className="stack" aria-labelledby="missing-images-title">
      <h3 id="missing-images-title">Missing images</h3>
      {count ? (
        <p className="small" style={{ margin: 0 }}>
          {plural(count, 'image', 'images')} of {plural(posts.length, 'post', 'posts')} could not be brought: the posts show
          them from their old address meanwhile. Bring the old site (or its images) back online, then fetch them again.
        </p>
      ) : null}
      {count ? (
        <div>
          <button type="button" className="btn" onClick={() => void onFetch()} disabled={!!run || fetching.isLoading}>
            <ImageDown size={16} aria-hidden="true" /> {run ? 'Fetching the missing images...' : 'Fetch missing images'}
          </button>
        </div>
      ) : null}
      {run && progress ? (
        <ProgressBar
          label="Fetching the missing images"
          done={progress.tried}
          total={run.before.size}
          text={`Fetching the missing images: ${formatNumber(progress.tried)} of ${formatNumber(run.before.size)} tried`}
        />
      ) : null}
      <div role="status" className="small">
        {result}
      </div>
      {count ? (
        <ul className="stack" style={{ margin: 0, paddingLeft: 18, gap: 8 }} aria-label="Missing images by post">
          {posts.map((post) => (
            <li key={post.postId}>
              <strong className="break">{post.title}</strong> <span className="small muted">/{post.slug}</span>
              <ul className="small" style={{ margin: '4px 0 0', paddingLeft: 18 }}>
                {post.images.map((image) => (
                  <li key={`${image.role} ${image.url}`} className="break">
                    <code>{image.url}</code> ({ROLES[image.role] ?? image.role}): {image.reason}
                    {image.attempts ? <span className="muted"> (tried {plural(image.attempts, 'time', 'times')})</span> : null}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

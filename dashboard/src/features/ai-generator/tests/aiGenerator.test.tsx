import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AI_DRAFT_KEY } from '@/lib/aiDraft';
import { baseHandlers } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const LONG = 'word '.repeat(150).trim(); // 749 characters
const BLOG = {
  title: 'Ten Django Tips',
  content: `<p>${LONG}</p>`,
  excerpt: 'Tips for Django.',
  slug: 'ten-django-tips',
  metaTitle: 'Ten Django Tips | Guide',
  metaDescription: 'Learn ten tips.',
  canonicalUrl: '',
  focusKeyword: 'django',
  tags: ['django', 'python'],
  categories: ['Guides'],
};

function blogApi() {
  const bodies: unknown[] = [];
  server.use(
    http.post('*/api/ai/generate-blog', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ success: true, message: 'Blog content generated successfully!', data: BLOG });
    }),
  );
  return bodies;
}

async function generate(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('What should the post be about?'), 'Django tips for beginners');
  await user.click(screen.getByRole('button', { name: 'Generate Blog Post' }));
  await screen.findByText('Ten Django Tips');
}

describe('AI blog generator', () => {
  it('needs 10 characters: the button stays disabled and the message shows', async () => {
    const user = userEvent.setup();
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    const input = await screen.findByLabelText('What should the post be about?');
    const button = screen.getByRole('button', { name: 'Generate Blog Post' });
    expect(button).toBeDisabled();
    await user.type(input, '   short  ');
    await user.tab();
    expect(button).toBeDisabled();
    expect(screen.getByText('Please enter at least 10 characters of input content')).toBeInTheDocument();
    await user.type(input, 'er text!');
    expect(button).toBeEnabled();
  });

  it('offers the spec tones and audiences with their defaults', async () => {
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    const tone = await screen.findByLabelText('Tone');
    expect(tone).toHaveValue('professional');
    expect([...(tone as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      'professional',
      'casual',
      'friendly',
      'authoritative',
      'conversational',
    ]);
    const audience = screen.getByLabelText('Target Audience');
    expect(audience).toHaveValue('general');
    expect([...(audience as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      'general',
      'beginners',
      'experts',
      'business',
      'technical',
    ]);
  });

  it('generates, shows every field and a preview cut at 500 characters', async () => {
    const bodies = blogApi();
    const user = userEvent.setup();
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    await user.selectOptions(await screen.findByLabelText('Tone'), 'casual');
    await user.selectOptions(screen.getByLabelText('Target Audience'), 'beginners');
    await generate(user);
    expect(bodies[0]).toEqual({ inputContent: 'Django tips for beginners', tone: 'casual', targetAudience: 'beginners', contentType: 'blog' });
    expect(screen.getByText('Blog content generated successfully!')).toBeInTheDocument();
    expect(screen.getByText('Ten Django Tips | Guide')).toBeInTheDocument();
    expect(screen.getByText('django, python')).toBeInTheDocument();
    const preview = screen.getByTestId('content-preview').textContent!;
    expect(preview).toBe(`${LONG.slice(0, 500)}...`);
  });

  it('copy buttons confirm, and the icon resets after 2 seconds', async () => {
    blogApi();
    const user = userEvent.setup();
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    await generate(user);
    const copy = screen.getByRole('button', { name: 'Copy Title' });
    const clicked = Date.now();
    await user.click(copy);
    expect(copy).toHaveAttribute('data-copied', 'true');
    expect(await navigator.clipboard.readText()).toBe('Ten Django Tips');
    expect(await screen.findByText('Copied to clipboard!')).toBeInTheDocument();
    await waitFor(() => expect(copy).toHaveAttribute('data-copied', 'false'), { timeout: 5000 });
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(1950);
  });

  it('Save for Later keeps the draft in session storage with the spec mapping', async () => {
    blogApi();
    const user = userEvent.setup();
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    await generate(user);
    await user.click(screen.getByRole('button', { name: 'Save for Later' }));
    expect(await screen.findByText('Content ready! Go to "Create New Post" to use it.')).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(AI_DRAFT_KEY)!)).toEqual({
      postTitle: 'Ten Django Tips',
      postContent: BLOG.content,
      postExcerpt: 'Tips for Django.',
      customSlug: 'ten-django-tips',
      seoMetadata: { title: 'Ten Django Tips | Guide', description: 'Learn ten tips.', canonicalUrl: '', focusKeyword: 'django' },
      tags: ['django', 'python'],
      categories: ['Guides'],
    });
  });

  it('Create New Post opens the form prefilled', async () => {
    blogApi();
    server.use(...baseHandlers);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/ai-generator', { session: signedIn() });
    await generate(user);
    await user.click(screen.getByRole('button', { name: 'Create New Post' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/posts/new'));
    expect(await screen.findByDisplayValue('Ten Django Tips')).toBeInTheDocument();
    expect(await screen.findByText('AI-generated content loaded!')).toBeInTheDocument();
  });

  it('shows the server message when generation fails', async () => {
    server.use(
      http.post('*/api/ai/generate-blog', () =>
        HttpResponse.json({ success: false, message: 'Daily AI quota reached', error: 'rate_limited' }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    await user.type(await screen.findByLabelText('What should the post be about?'), 'Django tips for beginners');
    await user.click(screen.getByRole('button', { name: 'Generate Blog Post' }));
    expect(await screen.findByText('Daily AI quota reached')).toBeInTheDocument();
  });
});

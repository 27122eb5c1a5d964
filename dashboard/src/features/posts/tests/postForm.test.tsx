import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AI_DRAFT_KEY } from '@/lib/aiDraft';
import { baseHandlers, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

vi.mock('@/components/editor/CkEditorField', () => import('./editorMock'));

type User = ReturnType<typeof userEvent.setup>;

async function openCreate() {
  server.use(...baseHandlers);
  const app = renderApp('/dashboard/posts/new', { session: signedIn() });
  await screen.findByRole('heading', { name: 'Create New Post' });
  return app;
}

/** The save button, whose label follows the chosen status (Save draft, Publish, Schedule, Update). */
const SAVE = /^(Save draft|Publish|Schedule|Update|Save)$/;
const submit = (user: User) => user.click(screen.getByRole('button', { name: SAVE }));

describe('create post validation', () => {
  it('shows every required-field message of the spec', async () => {
    const user = userEvent.setup();
    await openCreate();
    await submit(user);
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Content is required')).toBeInTheDocument();
    expect(screen.getByText('Excerpt is required')).toBeInTheDocument();
    expect(screen.getByText('At least one category is required')).toBeInTheDocument();
    expect(screen.getByText('Featured image is required')).toBeInTheDocument();
    // SEO fields live on the SEO tab.
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    expect(screen.getByText('SEO title is required')).toBeInTheDocument();
    expect(screen.getByText('SEO description is required')).toBeInTheDocument();
  });

  it('rejects an invalid canonical URL and opens the SEO tab for it', async () => {
    const user = userEvent.setup();
    await openCreate();
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.type(screen.getByLabelText('Canonical URL'), 'not a url');
    await user.click(screen.getByRole('tab', { name: 'Content' }));
    await submit(user);
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    expect(await screen.findByText('Please enter a valid URL')).toBeInTheDocument();
  });

  it('an empty paragraph is not content', async () => {
    const user = userEvent.setup();
    await openCreate();
    await user.click(screen.getByRole('button', { name: 'HTML' }));
    await user.type(screen.getByLabelText('Content HTML source'), '<p>&nbsp;</p>');
    await submit(user);
    expect(await screen.findByText('Content is required')).toBeInTheDocument();
  });

  it('fills slug and SEO title from the title on blur, counters turn red above the guide', async () => {
    const user = userEvent.setup();
    await openCreate();
    await user.type(screen.getByLabelText('Title'), 'Hello, World: 2024 Edition!');
    await user.tab();
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    expect(screen.getByLabelText('URL Slug')).toHaveValue('hello-world-2024-edition');
    expect(screen.getByLabelText('SEO Title')).toHaveValue('Hello, World: 2024 Edition!');
    const [titleCounter, descCounter] = screen.getAllByTestId('counter');
    expect(titleCounter).toHaveTextContent('27/60');
    expect(titleCounter).not.toHaveClass('over');
    await user.type(screen.getByLabelText('SEO Title'), 'x'.repeat(34));
    expect(titleCounter).toHaveTextContent('61/60');
    expect(titleCounter).toHaveClass('over');
    expect(descCounter).toHaveTextContent('0/160');
  });

  it('publishes with the spec payload and shows the server message', async () => {
    let sent: Record<string, unknown> | null = null;
    await openCreate();
    server.use(
      http.post('*/api/posts/upload', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ success: true, message: 'Post created successfully', post: makePost(5) }, { status: 201 });
      }),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'My First Post');
    await user.tab();
    await user.type(await screen.findByLabelText('Rich text'), '<p>Body</p>');
    await user.type(screen.getByLabelText('Excerpt'), 'Short summary');
    await user.click(screen.getByRole('checkbox', { name: 'News' }));
    await user.click(screen.getByRole('checkbox', { name: 'react' }));
    await user.selectOptions(screen.getByLabelText('Status'), 'published');
    await user.click(screen.getByRole('button', { name: /Select Featured Image/ }));
    await user.click(await screen.findByRole('button', { name: 'hero.png' }));
    await user.type(screen.getByLabelText('YouTube Video'), 'https://youtu.be/dQw4w9WgXcQ');
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.type(screen.getByLabelText('SEO Description'), 'Meta description');
    await submit(user);
    expect(await screen.findByText('Post created successfully')).toBeInTheDocument();
    expect(sent).toMatchObject({
      postTitle: 'My First Post',
      postContent: '<p>Body</p>',
      postExcerpt: 'Short summary',
      customSlug: 'my-first-post',
      postStatus: 'published',
      categories: ['c1'],
      tags: ['t1'],
      featuredMediaId: 'm1',
      allowIndexing: true,
      videoId: 'dQw4w9WgXcQ',
      seoMetadata: { title: 'My First Post', description: 'Meta description', canonicalUrl: '', focusKeyword: '' },
    });
    // Today's date (the default) publishes now: no schedule is sent.
    expect(sent).not.toHaveProperty('scheduledPublishDate');
  });

  it('shows server field errors and the rewritten message', async () => {
    await openCreate();
    server.use(
      http.post('*/api/posts/upload', () =>
        HttpResponse.json(
          {
            success: false,
            message: 'Invalid categories selected',
            error: 'validation_error',
            errors: [{ field: 'categories', message: 'Unknown category id' }],
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'T');
    await user.tab();
    await user.type(await screen.findByLabelText('Rich text'), 'Body');
    await user.type(screen.getByLabelText('Excerpt'), 'E');
    await user.click(screen.getByRole('checkbox', { name: 'News' }));
    await user.click(screen.getByRole('button', { name: /Select Featured Image/ }));
    await user.click(await screen.findByRole('button', { name: 'hero.png' }));
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.type(screen.getByLabelText('SEO Description'), 'D');
    await submit(user);
    expect(await screen.findByText('Please check your category selections')).toBeInTheDocument();
    expect(screen.getByText('Unknown category id')).toBeInTheDocument();
  });
});

describe('content editor', () => {
  it('Visual, HTML and Preview show the same content', async () => {
    const user = userEvent.setup();
    await openCreate();
    await user.click(await screen.findByLabelText('Rich text'));
    await user.paste('<p>From the visual editor</p>');
    await user.click(screen.getByRole('button', { name: 'HTML' }));
    const source = screen.getByLabelText('Content HTML source');
    expect(source).toHaveValue('<p>From the visual editor</p>');
    await user.clear(source);
    await user.paste('<h2>Edited as HTML</h2>');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(within(screen.getByTestId('content-preview')).getByRole('heading', { name: 'Edited as HTML' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Editor' }));
    await user.click(screen.getByRole('button', { name: 'Visual' }));
    expect(await screen.findByLabelText('Rich text')).toHaveValue('<h2>Edited as HTML</h2>');
  });

  it('inserting media without a usable link says so', async () => {
    const user = userEvent.setup();
    await openCreate();
    server.use(
      http.get('*/api/media', () =>
        HttpResponse.json({
          success: true,
          media: [{ id: 'm7', fileName: 'broken.png', fileType: 'image/png', fileSize: 1, link: '', cdnUrl: '' }],
          page: 1,
          limit: 12,
          totalItems: 1,
          totalPages: 1,
        }),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Insert image from media library' }));
    await user.click(await screen.findByRole('button', { name: 'broken.png' }));
    expect(await screen.findByText('No valid image link available')).toBeInTheDocument();
    // The picker stays open with the message, so another image can be chosen.
    expect(screen.getByRole('dialog', { name: 'Insert Image' })).toBeInTheDocument();
  });
});

describe('Add New dialog', () => {
  it('requires a name, derives the slug and selects the created category', async () => {
    let body: unknown;
    await openCreate();
    server.use(
      http.post('*/api/categories/add', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { success: true, message: 'Category created successfully', category: { id: 'c9', name: 'Deep Dives', slug: 'deep-dives', postCount: 0 } },
          { status: 201 },
        );
      }),
      http.get('*/api/categories', () =>
        HttpResponse.json({ success: true, categories: [{ id: 'c9', name: 'Deep Dives', slug: 'deep-dives', postCount: 0 }] }),
      ),
    );
    const user = userEvent.setup();
    const [addCategory] = screen.getAllByRole('button', { name: 'Add New' });
    await user.click(addCategory);
    const dialog = screen.getByRole('dialog', { name: 'Add New Category' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Category' }));
    expect(within(dialog).getByText('Category name is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'Deep Dives!');
    expect(within(dialog).getByLabelText('Slug')).toHaveValue('deep-dives');
    await user.click(within(dialog).getByRole('button', { name: 'Add Category' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add New Category' })).not.toBeInTheDocument());
    expect(body).toEqual({ name: 'Deep Dives!', slug: 'deep-dives' });
    expect(await screen.findByRole('checkbox', { name: 'Deep Dives' })).toBeChecked();
  });

  it('requires a tag name', async () => {
    await openCreate();
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: 'Add New' })[1]);
    const dialog = screen.getByRole('dialog', { name: 'Add New Tag' });
    expect(within(dialog).queryByLabelText('Description')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Tag' }));
    expect(within(dialog).getByText('Tag name is required')).toBeInTheDocument();
  });

  it('Most Used shows the five most used', async () => {
    await openCreate();
    const user = userEvent.setup();
    const [categoriesView] = screen.getAllByRole('group', { name: 'Categories view' });
    await user.click(within(categoriesView).getByRole('button', { name: 'Most Used' }));
    const list = screen.getByRole('group', { name: 'Categories' });
    const names = within(list).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent);
    expect(names).toEqual(['Guides8', 'News3']);
  });
});

describe('YouTube field', () => {
  it('keeps the id of a URL and clears anything else', async () => {
    await openCreate();
    const user = userEvent.setup();
    const input = screen.getByLabelText('YouTube Video');
    await user.type(input, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1');
    await user.tab();
    expect(input).toHaveValue('dQw4w9WgXcQ');
    expect(screen.getByText('Video ID: dQw4w9WgXcQ')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'https://vimeo.com/123');
    await user.tab();
    expect(input).toHaveValue('');
  });
});

describe('AI SEO generator', () => {
  it('needs some text, then generates, applies and clears the result', async () => {
    await openCreate();
    let body: unknown;
    server.use(
      http.post('*/api/ai/generate-seo', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          success: true,
          data: { metaTitle: 'Great title', metaDescription: 'Great description', keywords: ['a', 'b'] },
        });
      }),
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.click(screen.getByRole('button', { name: 'Generate SEO' }));
    expect(await screen.findByText('Please add a title, content, or excerpt before generating SEO metadata.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Content' }));
    await user.type(screen.getByLabelText('Excerpt'), 'About things');
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.click(screen.getByRole('button', { name: 'Generate SEO' }));
    expect(await screen.findByText('Great title')).toBeInTheDocument();
    expect(body).toEqual({ title: '', content: '', excerpt: 'About things' });
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByLabelText('SEO Title')).toHaveValue('Great title');
    expect(screen.getByLabelText('SEO Description')).toHaveValue('Great description');
    expect(screen.getByLabelText('Focus Keywords')).toHaveValue('a, b');
    expect(screen.queryByRole('button', { name: 'Apply' })).not.toBeInTheDocument();
  });

  it('waits for a job still running on the worker (202), then shows its result', async () => {
    await openCreate();
    let polls = 0;
    server.use(
      http.post('*/api/ai/generate-seo', () =>
        HttpResponse.json({ success: true, message: 'Generation started', job: { id: 'j1', kind: 'seo', status: 'queued' } }, { status: 202 }),
      ),
      http.get('*/api/ai/jobs/j1', () => {
        polls += 1;
        return HttpResponse.json({
          success: true,
          job:
            polls < 2
              ? { id: 'j1', kind: 'seo', status: 'running' }
              : { id: 'j1', kind: 'seo', status: 'succeeded', data: { metaTitle: 'Late title', metaDescription: 'Late description', keywords: ['x'] } },
        });
      }),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'Something');
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.click(screen.getByRole('button', { name: 'Generate SEO' }));
    expect(screen.getByRole('button', { name: /Generating/ })).toBeDisabled();
    expect(await screen.findByText('Late title', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(polls).toBe(2);
  });

  it('shows the message of a failed job', async () => {
    await openCreate();
    server.use(
      http.post('*/api/ai/generate-seo', () =>
        HttpResponse.json({ success: true, job: { id: 'j2', kind: 'seo', status: 'queued' } }, { status: 202 }),
      ),
      http.get('*/api/ai/jobs/j2', () =>
        HttpResponse.json({ success: true, job: { id: 'j2', kind: 'seo', status: 'failed', message: 'No response from AI service' } }),
      ),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'Something');
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.click(screen.getByRole('button', { name: 'Generate SEO' }));
    expect(await screen.findByText('No response from AI service', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('reports an incomplete result', async () => {
    await openCreate();
    server.use(
      http.post('*/api/ai/generate-seo', () =>
        HttpResponse.json({ success: true, data: { metaTitle: 'Only a title', metaDescription: '', keywords: [] } }),
      ),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Title'), 'Something');
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.click(screen.getByRole('button', { name: 'Generate SEO' }));
    expect(await screen.findByText('Incomplete SEO data generated')).toBeInTheDocument();
  });
});

describe('AI prefill', () => {
  it('is consumed once with its toast', async () => {
    sessionStorage.setItem(
      AI_DRAFT_KEY,
      JSON.stringify({
        postTitle: 'AI Title',
        postContent: '<p>AI body</p>',
        postExcerpt: 'AI excerpt',
        customSlug: 'ai-title',
        seoMetadata: { title: 'AI SEO', description: 'AI desc', canonicalUrl: '', focusKeyword: 'ai' },
        tags: ['django'],
        categories: ['guides'],
      }),
    );
    await openCreate();
    expect(await screen.findByText('AI-generated content loaded!')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('AI Title');
    expect(screen.getByLabelText('Excerpt')).toHaveValue('AI excerpt');
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Guides' })).toBeChecked());
    expect(screen.getByRole('checkbox', { name: 'django' })).toBeChecked();
    expect(sessionStorage.getItem(AI_DRAFT_KEY)).toBeNull();
  });
});

describe('AI suggestions', () => {
  it('offers suggested terms that do not exist yet, one click to create and select', async () => {
    let created: unknown;
    server.use(
      ...baseHandlers,
      http.post('*/api/tags/add', async ({ request }) => {
        created = await request.json();
        return HttpResponse.json({ success: true, message: 'Tag created successfully', tag: { id: 't9', name: 'Road Trips', slug: 'road-trips' } }, { status: 201 });
      }),
    );
    sessionStorage.setItem(
      AI_DRAFT_KEY,
      JSON.stringify({ postTitle: 'AI Title', postContent: '<p>AI body</p>', tags: ['django', 'Road Trips'], categories: ['guides'] }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/new', { session: signedIn() });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'django' })).toBeChecked());
    // An existing one is selected, not offered.
    expect(screen.queryByRole('button', { name: 'Create and select tag django' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Create and select tag Road Trips' }));
    await waitFor(() => expect(created).toEqual({ name: 'Road Trips', slug: 'road-trips' }));
  });
});

describe('edit post', () => {
  it('loads by id, requires only the title, sends the partial payload', async () => {
    let sent: unknown;
    server.use(
      ...baseHandlers,
      http.get('*/api/posts/p1', () =>
        HttpResponse.json({
          success: true,
          post: makePost(1, { content: '<p>Old</p>', metaTitle: '', metaDescription: '', featuredImage: null, categories: [] }),
        }),
      ),
      http.put('*/api/posts/p1', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Post updated successfully', post: makePost(1) });
      }),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Edit Post: Post number 1' })).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Title'));
    await user.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.queryByText('Featured image is required')).not.toBeInTheDocument();
    expect(screen.queryByText('At least one category is required')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Title'), 'Renamed');
    await user.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('Post updated successfully')).toBeInTheDocument();
    expect(sent).toEqual({
      title: 'Renamed',
      content: '<p>Old</p>',
      excerpt: 'Excerpt 1',
      customSlug: 'post-number-1',
      status: 'published',
      tags: ['t1'],
      // The SEO title was empty, so it follows the title.
      metaTitle: 'Renamed',
    });
    // The publish date was not touched, so no schedule was sent.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/posts'));
  });

  it('sends the publish date only when it was changed', async () => {
    let sent: Record<string, unknown> = {};
    server.use(
      ...baseHandlers,
      http.get('*/api/posts/p1', () => HttpResponse.json({ success: true, post: makePost(1, { content: '<p>Old</p>' }) })),
      http.put('*/api/posts/p1', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ success: true, message: 'Post updated successfully', post: makePost(1) });
      }),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const date = await screen.findByLabelText('Publish Date');
    expect(date).toHaveValue('2024-05-02');
    await user.clear(date);
    await user.type(date, '2030-01-31');
    await user.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('Post updated successfully');
    expect(sent.scheduledPublishDate).toBe(new Date(2030, 0, 31).toISOString());
  });

  it.each([
    ['Validation failed', 'Please check that all required fields are filled correctly'],
    ['Invalid tags selected', 'Please check your tag selections'],
    ['Featured image does not exist', 'Please select a valid featured image'],
    ['Something else broke', 'Something else broke'],
  ])('rewrites a save error %j', async (serverMessage, shown) => {
    server.use(
      ...baseHandlers,
      http.get('*/api/posts/p1', () => HttpResponse.json({ success: true, post: makePost(1, { content: '<p>Old</p>' }) })),
      http.put('*/api/posts/p1', () =>
        HttpResponse.json({ success: false, message: serverMessage, error: 'validation_error' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: SAVE }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('shows Post Not Found for a missing post', async () => {
    server.use(
      ...baseHandlers,
      http.get('*/api/posts/nope', () => HttpResponse.json({ success: false, message: 'Post not found', error: 'not_found' }, { status: 404 })),
    );
    renderApp('/dashboard/posts/edit/nope', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Post Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Posts/ })).toHaveAttribute('href', '/dashboard/posts');
  });
});

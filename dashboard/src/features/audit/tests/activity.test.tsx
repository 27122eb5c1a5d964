import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/lib/session';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });

const ENTRY = {
  id: 'a1',
  createdAt: '2024-05-03T10:00:00Z',
  action: 'post.published',
  actionLabel: 'Post published',
  userId: 'u-2',
  username: 'bob',
  objectType: 'post',
  objectId: 'p1',
  summary: 'Launch day',
  clientHash: '0123456789abcdef0123456789abcdef',
};

function auditApi(total = 1) {
  const calls: URLSearchParams[] = [];
  server.use(
    http.get('*/api/audit', ({ request }) => {
      const q = new URL(request.url).searchParams;
      calls.push(q);
      return HttpResponse.json({
        success: true,
        entries: q.get('action') === 'auth.login_failed' ? [] : [ENTRY],
        actions: [
          { value: 'post.published', label: 'Post published' },
          { value: 'auth.login_failed', label: 'Failed sign-in' },
        ],
        pagination: { total, totalPages: Math.ceil(total / 25), currentPage: Number(q.get('page')), limit: 25 },
      });
    }),
    http.get('*/api/users', () =>
      HttpResponse.json({ success: true, users: [{ id: 'u-2', userId: 'u-2', username: 'bob', role: 'editor' }] }),
    ),
    http.get('*/api/dashboard/stats', () => HttpResponse.json({ success: false }, { status: 503 })),
    http.get('*/api/analytics/page-views', () => HttpResponse.json({ success: false }, { status: 503 })),
    http.post('*/api/analytics/track', () => HttpResponse.json({ success: true })),
  );
  return calls;
}

describe('activity', () => {
  it('admins see who did what, filter it and page through it', async () => {
    const calls = auditApi(60);
    const user = userEvent.setup();
    renderApp('/dashboard/activity', { session: as('admin') });
    const row = (await screen.findByText('Launch day')).closest('tr')!;
    expect(within(row).getByText('bob')).toBeInTheDocument();
    expect(within(row).getByText('Post published')).toBeInTheDocument();
    expect(within(row).getByText('01234567')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('User'), 'u-2');
    await waitFor(() => expect(calls.at(-1)?.get('user')).toBe('u-2'));
    await user.selectOptions(screen.getByLabelText('Object'), 'post');
    await waitFor(() => expect(calls.at(-1)?.get('objectType')).toBe('post'));
    await user.selectOptions(screen.getByLabelText('Action'), 'auth.login_failed');
    expect(await screen.findByText('No activity matches these filters.')).toBeInTheDocument();
    expect(calls.at(-1)?.get('action')).toBe('auth.login_failed');
    await user.selectOptions(screen.getByLabelText('Action'), '');
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(calls.at(-1)?.get('page')).toBe('2'));
    expect(calls.at(-1)?.get('user')).toBe('u-2');
  });

  it('is in the sidebar for admins only', async () => {
    auditApi();
    renderApp('/dashboard/activity', { session: as('admin') });
    expect(await screen.findByRole('link', { name: 'Activity' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Users' })).toBeInTheDocument();
  });

  it.each(['editor', 'author', 'viewer'] as const)('%s: no Activity or Users link, and the screen says why', async (role) => {
    const calls = auditApi();
    renderApp('/dashboard/activity', { session: as(role) });
    expect(await screen.findByText('Only administrators can see the activity log.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Posts' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Activity' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const EVENTS = ['post.published', 'post.updated', 'post.deleted', 'category.created', 'tag.created', 'media.created'];
const NOW = '2026-01-02T10:00:00Z';

function endpoint(over: Record<string, unknown> = {}) {
  return {
    id: 'w-1',
    url: 'https://site.example/hooks/cms',
    description: 'Rebuild the site',
    events: ['post.published'],
    active: true,
    disabledReason: null,
    consecutiveFailures: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

function delivery(n: number, over: Record<string, unknown> = {}) {
  return {
    id: `d-${n}`,
    webhookId: 'w-1',
    event: 'webhook.test',
    status: 'succeeded',
    attempt: 1,
    responseStatus: 200,
    responseExcerpt: 'ok',
    durationMs: 42,
    error: '',
    createdAt: NOW,
    lastAttemptAt: NOW,
    nextAttemptAt: null,
    ...over,
  };
}

/** An in-memory webhooks API; returns what was sent. */
function webhooksApi(start = [endpoint()]) {
  let endpoints = [...start];
  const sent: { method: string; path: string; body?: unknown }[] = [];
  server.use(
    http.get('*/api/webhooks', () => HttpResponse.json({ success: true, endpoints, events: EVENTS })),
    http.post('*/api/webhooks', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', path: 'webhooks', body });
      if (String(body.url).includes('127.0.0.1')) {
        return HttpResponse.json(
          { success: false, error: 'validation_error', message: 'URL points at a private address', errors: [{ field: 'url', message: 'URL points at a private address' }] },
          { status: 400 },
        );
      }
      const created = endpoint({ ...body, id: 'w-2' });
      endpoints = [...endpoints, created];
      return HttpResponse.json({ success: true, message: 'Webhook endpoint created', endpoint: { ...created, secret: 'whsec_first' } }, { status: 201 });
    }),
    http.put('*/api/webhooks/:id', async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'PUT', path: `webhooks/${params.id}`, body });
      endpoints = endpoints.map((e) => (e.id === params.id ? { ...e, ...body } : e));
      return HttpResponse.json({ success: true, message: 'Webhook endpoint updated', endpoint: endpoints.find((e) => e.id === params.id) });
    }),
    http.delete('*/api/webhooks/:id', ({ params }) => {
      sent.push({ method: 'DELETE', path: `webhooks/${params.id}` });
      endpoints = endpoints.filter((e) => e.id !== params.id);
      return HttpResponse.json({ success: true, message: 'Webhook endpoint deleted' });
    }),
    http.post('*/api/webhooks/:id/secret/rotate', ({ params }) => {
      sent.push({ method: 'POST', path: `webhooks/${params.id}/secret/rotate` });
      return HttpResponse.json({ success: true, endpoint: { ...endpoints[0], secret: 'whsec_rotated' } });
    }),
    http.post('*/api/webhooks/:id/test', ({ params }) => {
      sent.push({ method: 'POST', path: `webhooks/${params.id}/test` });
      return HttpResponse.json({ success: true, message: 'Test event queued', delivery: delivery(9, { status: 'pending' }) }, { status: 202 });
    }),
  );
  return sent;
}

describe('webhooks list', () => {
  it('shows URL, events, status with the reason, failures; loading then rows', async () => {
    webhooksApi([
      endpoint(),
      endpoint({ id: 'w-3', url: 'https://down.example/hook', active: false, consecutiveFailures: 5, disabledReason: 'Turned off after 5 failed deliveries' }),
    ]);
    renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Webhooks' })).toBeInTheDocument();
    await screen.findByText('https://down.example/hook');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['URL', 'Events', 'Status', 'Failures in a row', 'Actions']);
    expect(screen.getByText('Active')).toHaveClass('badge-success');
    expect(screen.getByText('Disabled')).toHaveClass('badge-danger');
    expect(screen.getByText('Turned off after 5 failed deliveries')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://site.example/hooks/cms' })).toHaveAttribute('href', '/dashboard/settings/webhooks/w-1');
  });

  it('empty and error states', async () => {
    webhooksApi([]);
    const first = renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    expect(await screen.findByText(/No webhook endpoints yet/)).toBeInTheDocument();
    first.unmount();
    server.use(http.get('*/api/webhooks', () => HttpResponse.json({ success: false, error: 'x', message: 'down' }, { status: 500 })));
    renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    expect(await screen.findByText('Failed to load webhooks. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('is for admins only', async () => {
    renderApp('/dashboard/settings/webhooks', { session: signedIn({ userId: 'u-2', username: 'ed', role: 'editor' }) });
    expect(await screen.findByText('Only administrators can manage webhooks.')).toBeInTheDocument();
  });
});

describe('add, edit, delete, rotate, test', () => {
  it('adds an endpoint with grouped events, shows the secret once with a copy button', async () => {
    const sent = webhooksApi([]);
    const user = userEvent.setup();
    renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    // the header's button is disabled until the list has loaded; then the empty state offers one too
    expect(await screen.findByText(/No webhook endpoints yet/)).toBeInTheDocument();
    const [headerButton] = screen.getAllByRole('button', { name: 'Add endpoint' });
    expect(headerButton).toBeEnabled();
    await user.click(headerButton);
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    // checks before sending
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(within(dialog).getByText('Enter an http:// or https:// URL')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one event')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    // the server's field error is shown on its field
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'http://127.0.0.1/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: 'post.published' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText('URL points at a private address')).toBeInTheDocument();
    // a group's checkbox chooses all of its events
    expect(within(dialog).getByRole('group', { name: /All posts events/ })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'All tags events' }));
    await user.clear(within(dialog).getByLabelText('Endpoint URL'));
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://new.example/hook');
    await user.type(within(dialog).getByLabelText('Description'), 'Build');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    const secret = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(secret).toHaveTextContent("you won't see it again");
    expect(within(secret).getByLabelText('Signing secret')).toHaveValue('whsec_first');
    expect(within(secret).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: 'webhooks',
      body: { url: 'https://new.example/hook', description: 'Build', events: ['post.published', 'tag.created'], active: true },
    });
    await user.click(within(secret).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('https://new.example/hook')).toBeInTheDocument();
  });

  it('edits, sends a test event, rotates (confirmed) and deletes (confirmed)', async () => {
    const sent = webhooksApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    const menu = async (item: string) => {
      await user.click(await screen.findByRole('button', { name: 'Actions for https://site.example/hooks/cms' }));
      await user.click(screen.getByRole('menuitem', { name: item }));
    };
    await menu('Edit');
    const dialog = screen.getByRole('dialog', { name: 'Edit endpoint' });
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue('https://site.example/hooks/cms');
    expect(within(dialog).getByRole('checkbox', { name: 'post.published' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: /Active/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Webhook endpoint updated')).toBeInTheDocument();
    expect(sent.at(-1)?.body).toMatchObject({ active: false, events: ['post.published'] });

    await menu('Send test event');
    expect(await screen.findByText('Test event queued. See the delivery log.')).toBeInTheDocument();
    expect(sent.at(-1)?.path).toBe('webhooks/w-1/test');

    await menu('Rotate secret');
    const rotate = screen.getByRole('dialog', { name: 'Rotate secret' });
    expect(rotate).toHaveTextContent('stops working at once');
    await user.click(within(rotate).getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByRole('dialog', { name: 'Signing secret' })).toHaveTextContent("you won't see it again");
    expect(screen.getByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_rotated');
    await user.click(screen.getByRole('button', { name: 'Done' }));

    await menu('Delete');
    const confirm = screen.getByRole('dialog', { name: 'Delete endpoint' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent.some((s) => s.method === 'DELETE')).toBe(false);
    await menu('Delete');
    await user.click(within(screen.getByRole('dialog', { name: 'Delete endpoint' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Webhook endpoint deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(/No webhook endpoints yet/)).toBeInTheDocument());
  });
});

describe('delivery log', () => {
  it('pages the log (status, response, duration, attempt) and redelivers', async () => {
    webhooksApi();
    const asked: string[] = [];
    let redelivered = '';
    server.use(
      http.get('*/api/webhooks/w-1/deliveries', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        asked.push(String(page));
        const deliveries =
          page === 1
            ? [delivery(1), delivery(2, { status: 'failed', responseStatus: 500, responseExcerpt: 'boom', attempt: 3, event: 'post.published' })]
            : [delivery(3, { status: 'pending', responseStatus: null, durationMs: null, error: 'Connection refused' })];
        return HttpResponse.json({ success: true, deliveries, pagination: { total: 3, totalPages: 2, currentPage: page, limit: 20 } });
      }),
      http.post('*/api/webhooks/w-1/deliveries/:did/redeliver', ({ params }) => {
        redelivered = String(params.did);
        return HttpResponse.json({ success: true, message: 'Queued', delivery: delivery(4, { status: 'pending' }) }, { status: 202 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/settings/webhooks/w-1', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Delivery log' })).toBeInTheDocument();
    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toHaveTextContent('failed');
    expect(rows[2]).toHaveTextContent('500');
    expect(rows[2]).toHaveTextContent('boom');
    expect(rows[1]).toHaveTextContent('42 ms');
    expect(within(rows[2]).getByText('3')).toBeInTheDocument();
    await user.click(within(rows[2]).getByRole('button', { name: /Redeliver/ }));
    expect(await screen.findByText('Delivery queued again')).toBeInTheDocument();
    expect(redelivered).toBe('d-2');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Connection refused')).toBeInTheDocument();
    expect(asked).toContain('2');
  });

  it('an empty log and an unknown endpoint', async () => {
    webhooksApi();
    server.use(
      http.get('*/api/webhooks/w-1/deliveries', () =>
        HttpResponse.json({ success: true, deliveries: [], pagination: { total: 0, totalPages: 0, currentPage: 1, limit: 20 } }),
      ),
      http.get('*/api/webhooks/nope/deliveries', () => HttpResponse.json({ success: false, error: 'not_found', message: 'Webhook endpoint not found' }, { status: 404 })),
    );
    const first = renderApp('/dashboard/settings/webhooks/w-1', { session: signedIn() });
    expect(await screen.findByText(/No deliveries yet/)).toBeInTheDocument();
    first.unmount();
    renderApp('/dashboard/settings/webhooks/nope', { session: signedIn() });
    expect(await screen.findByText('Webhook endpoint not found.')).toBeInTheDocument();
  });
});

describe('disabled endpoint banner', () => {
  it('tells admins on the dashboard home and links to the endpoint; not other roles', async () => {
    webhooksApi([endpoint({ active: false, disabledReason: 'Turned off after 5 failed deliveries', consecutiveFailures: 5 })]);
    server.use(
      http.get('*/api/dashboard/stats', () => HttpResponse.json({ success: false, message: 'no', error: 'bad' }, { status: 400 })),
      http.post('*/api/analytics/track', () => HttpResponse.json({ success: true })),
    );
    const first = renderApp('/dashboard', { session: signedIn() });
    const banner = await screen.findByText(/A webhook endpoint was turned off after failed deliveries/);
    expect(within(banner).getByRole('link', { name: 'See the endpoint' })).toHaveAttribute('href', '/dashboard/settings/webhooks/w-1');
    first.unmount();
    renderApp('/dashboard', { session: signedIn({ userId: 'u-2', username: 'ed', role: 'editor' }) });
    expect(await screen.findByText('Failed to load dashboard statistics')).toBeInTheDocument();
    expect(screen.queryByText(/webhook endpoint was turned off/)).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/lib/session';
import { CLIENT_INFO } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });
const GHOST_URL = 'https://demo.cms.example';
const NOW = '2026-11-20T10:00:00Z';
const CONTENT_KEY = '0123456789abcdef0123456789';
const ADMIN_KEY = `6502f0a1b2c3d4e5f6a7b8c9:${'ab'.repeat(31)}cdef`;

function integration(over: Record<string, unknown> = {}) {
  return {
    id: 'i-1',
    name: 'Website',
    companyKey: true,
    contentKeyHint: '6789',
    adminKeyId: null,
    adminKeyHint: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

/** An in-memory integrations API; returns what was sent. */
function integrationsApi() {
  let list = [integration(), integration({ id: 'i-2', name: 'Zapier', companyKey: false, contentKeyHint: 'aaaa', adminKeyId: '650000000000000000000002', adminKeyHint: 'bbbb' })];
  const sent: { method: string; path: string; body?: unknown }[] = [];
  server.use(
    http.get('*/api/integrations', () => {
      sent.push({ method: 'GET', path: 'integrations' });
      return HttpResponse.json({ success: true, integrations: list, ghostUrl: GHOST_URL });
    }),
    http.post('*/api/integrations', async ({ request }) => {
      const body = (await request.json()) as { name: string };
      sent.push({ method: 'POST', path: 'integrations', body });
      if (body.name === 'Taken') {
        return HttpResponse.json(
          { success: false, error: 'validation_error', message: 'Name is taken', errors: [{ field: 'name', message: 'Name is taken' }] },
          { status: 400 },
        );
      }
      const made = integration({ id: 'i-3', name: body.name, companyKey: false, contentKeyHint: '6789', adminKeyId: '6502f0a1b2c3d4e5f6a7b8c9', adminKeyHint: 'cdef' });
      list = [...list, made];
      return HttpResponse.json(
        { success: true, message: 'Integration created. Copy its keys now: they are not shown again.', integration: { ...made, contentKey: CONTENT_KEY, adminKey: ADMIN_KEY } },
        { status: 201 },
      );
    }),
    http.post('*/api/integrations/:id/rotate', async ({ params, request }) => {
      const body = (await request.json()) as { keys: string[] };
      sent.push({ method: 'POST', path: `integrations/${params.id}/rotate`, body });
      const found = list.find((i) => i.id === params.id)!;
      return HttpResponse.json({
        success: true,
        message: 'Keys rotated. The previous keys no longer work.',
        integration: {
          ...found,
          contentKey: body.keys.includes('content') ? 'fedcba9876543210fedcba9876' : null,
          adminKey: body.keys.includes('admin') ? `6502f0a1b2c3d4e5f6a7b8ff:${'cd'.repeat(32)}` : null,
        },
      });
    }),
    http.delete('*/api/integrations/:id', ({ params }) => {
      sent.push({ method: 'DELETE', path: `integrations/${params.id}` });
      const found = list.find((i) => i.id === params.id)!;
      if (found.companyKey) {
        return HttpResponse.json(
          { success: false, error: 'conflict', message: "This integration holds the company's Ghost content key, which its website may use. Rotate its keys instead." },
          { status: 409 },
        );
      }
      list = list.filter((i) => i.id !== params.id);
      return HttpResponse.json({ success: true, message: 'Integration deleted. Its keys no longer work.' });
    }),
  );
  return sent;
}

async function openScreen(role: Role = 'admin') {
  const sent = integrationsApi();
  const user = userEvent.setup();
  renderApp('/dashboard/settings/integrations', { session: as(role) });
  return { sent, user };
}

const row = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('tr')!;

describe('Settings → Integrations (admins)', () => {
  it('lists each integration with its key hints and the API URL to give a tool', async () => {
    await openScreen();
    expect(await screen.findByRole('heading', { name: 'Integrations', level: 1 })).toBeInTheDocument();
    await screen.findByText('Zapier', { selector: 'strong' });
    const website = row('Website');
    expect(within(website).getByText("Your website's key")).toBeInTheDocument();
    expect(website).toHaveTextContent('ends in 6789');
    expect(website).toHaveTextContent('None yet: rotate its Admin API key to make one');
    expect(website).toHaveTextContent('Nov 20, 2026');
    const zapier = row('Zapier');
    expect(zapier).toHaveTextContent('650000000000000000000002');
    expect(zapier).toHaveTextContent('secret ends in bbbb');
    expect(screen.getByLabelText('API URL')).toHaveValue(GHOST_URL);
    // No key is ever shown whole in the list.
    expect(document.body).not.toHaveTextContent(CONTENT_KEY);
  });

  it('create: the name is required; the keys are shown once with copy buttons, then only their hints', async () => {
    const { sent, user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Add integration' }));
    const dialog = screen.getByRole('dialog', { name: 'Add integration' });
    await user.click(within(dialog).getByRole('button', { name: 'Create integration' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Name'), 'Taken');
    await user.click(within(dialog).getByRole('button', { name: 'Create integration' }));
    expect(await within(dialog).findByText('Name is taken')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), '  iA Writer ');
    await user.click(within(dialog).getByRole('button', { name: 'Create integration' }));

    const keys = await screen.findByRole('dialog', { name: 'Keys of iA Writer' });
    expect(sent.at(-2)).toEqual({ method: 'POST', path: 'integrations', body: { name: 'iA Writer' } });
    expect(within(keys).getByText(/you won't see them again/)).toBeInTheDocument();
    expect(within(keys).getByLabelText('Admin API key')).toHaveValue(ADMIN_KEY);
    expect(within(keys).getByLabelText('Content API key')).toHaveValue(CONTENT_KEY);
    expect(within(keys).getByLabelText('API URL')).toHaveValue(GHOST_URL);
    await user.click(within(keys).getByRole('button', { name: 'Copy Admin API key' }));
    expect(await navigator.clipboard.readText()).toBe(ADMIN_KEY);
    await user.click(within(keys).getByRole('button', { name: 'Copy Content API key' }));
    expect(await navigator.clipboard.readText()).toBe(CONTENT_KEY);
    await user.click(within(keys).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list again: the new one by its hints only.
    const made = await screen.findByText('iA Writer', { selector: 'strong' });
    expect(made.closest('tr')).toHaveTextContent('secret ends in cdef');
    expect(document.body).not.toHaveTextContent(ADMIN_KEY);
  });

  it('rotate: which keys; only the new ones are shown, once', async () => {
    const { sent, user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Actions for Zapier' }));
    await user.click(screen.getByRole('menuitem', { name: 'Rotate keys' }));
    let dialog = screen.getByRole('dialog', { name: 'Rotate keys of Zapier' });
    const group = within(dialog).getByRole('group', { name: 'Keys to rotate' });
    expect(within(group).getByRole('radio', { name: 'Both keys' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'The Content API key only' }));
    await user.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    const keys = await screen.findByRole('dialog', { name: 'New keys of Zapier' });
    expect(sent.find((s) => s.path === 'integrations/i-2/rotate')?.body).toEqual({ keys: ['content'] });
    expect(within(keys).getByLabelText('Content API key')).toHaveValue('fedcba9876543210fedcba9876');
    expect(within(keys).queryByLabelText('Admin API key')).not.toBeInTheDocument();
    expect(within(keys).getByText(/you won't see it again/)).toBeInTheDocument();
    await user.click(within(keys).getByRole('button', { name: 'Done' }));

    // The website's integration: its Admin API key by default; its content key is the website's.
    await user.click(screen.getByRole('button', { name: 'Actions for Website' }));
    await user.click(screen.getByRole('menuitem', { name: 'Rotate keys' }));
    dialog = screen.getByRole('dialog', { name: 'Rotate keys of Website' });
    expect(within(dialog).getByRole('radio', { name: /The Admin API key only/ })).toBeChecked();
    expect(within(dialog).queryByText(/changes the website's key too/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Both keys' }));
    expect(within(dialog).getByText(/changes the website's key too/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /The Admin API key only/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Rotate' }));
    const websiteKeys = await screen.findByRole('dialog', { name: 'New keys of Website' });
    expect(sent.find((s) => s.path === 'integrations/i-1/rotate')?.body).toEqual({ keys: ['admin'] });
    expect(within(websiteKeys).getByLabelText('Admin API key')).toHaveValue(`6502f0a1b2c3d4e5f6a7b8ff:${'cd'.repeat(32)}`);
  });

  it('delete asks first; the Website integration is refused with the server\'s message', async () => {
    const { sent, user } = await openScreen();
    await user.click(await screen.findByRole('button', { name: 'Actions for Zapier' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete integration' });
    expect(dialog).toHaveTextContent('Delete Zapier? Its keys stop working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Integration deleted. Its keys no longer work.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Zapier', { selector: 'strong' })).not.toBeInTheDocument());
    expect(sent.filter((s) => s.method === 'DELETE').map((s) => s.path)).toEqual(['integrations/i-2']);

    await user.click(screen.getByRole('button', { name: 'Actions for Website' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete integration' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/This integration holds the company's Ghost content key/)).toBeInTheDocument();
    expect(screen.getByText('Website', { selector: 'strong' })).toBeInTheDocument();
  });
});

describe('Settings → Integrations for the other roles', () => {
  it.each(['editor', 'author', 'viewer'] as Role[])('%s: told only administrators manage them; nothing is asked', async (role) => {
    const { sent } = await openScreen(role);
    expect(await screen.findByText('Only administrators can manage integrations.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add integration' })).not.toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('Settings leads admins there; not the other roles', async () => {
    server.use(http.get('*/api/client/info', () => HttpResponse.json({ success: true, data: CLIENT_INFO })));
    const user = userEvent.setup();
    integrationsApi();
    const { router, unmount } = renderApp('/dashboard/settings', { session: as('admin') });
    await user.click(await screen.findByRole('link', { name: 'Integrations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/settings/integrations'));
    unmount();
    renderApp('/dashboard/settings', { session: as('editor') });
    expect(await screen.findByText('Company Information')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Integrations' })).not.toBeInTheDocument();
  });
});

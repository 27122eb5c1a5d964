import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { makeStore } from '@/app/store';
import { signedIn, TENANT } from '@/test/render';
import { server } from '@/test/server';
import { SupportAccess } from '../components/SupportAccess';

const EDITOR = { userId: 'u-2', username: 'edna', role: 'editor' as const };

describe('Support access (settings)', () => {
  it('grants support access for the hours chosen, shows until when, and revokes it', async () => {
    let grant: null | { grantedBy: string; createdAt: string; expiresAt: string } = null;
    const sent: unknown[] = [];
    const reply = (message = '') => HttpResponse.json({ success: true, message, grant, sessions: [], maxHours: 24 });
    server.use(
      http.get('*/api/client/support-access', () => reply()),
      http.post('*/api/client/support-access', async ({ request }) => {
        sent.push(await request.json());
        grant = { grantedBy: 'alice', createdAt: '2026-01-02T10:00:00Z', expiresAt: '2026-01-02T14:00:00Z' };
        return reply('Support access granted');
      }),
      http.delete('*/api/client/support-access', () => {
        sent.push('revoke');
        grant = null;
        return reply('Support access revoked');
      }),
    );
    const user = userEvent.setup();
    render(
      <AppProviders store={makeStore(signedIn())} config={TENANT}>
        <SupportAccess />
      </AppProviders>,
    );
    await user.selectOptions(await screen.findByLabelText('For'), '4');
    await user.click(screen.getByRole('button', { name: 'Grant support access' }));
    expect(await screen.findByText(/Support may sign in until/)).toBeInTheDocument();
    expect(screen.getByText(/granted by alice/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke support access' }));
    expect(await screen.findByRole('button', { name: 'Grant support access' })).toBeInTheDocument();
    expect(sent).toEqual([{ hours: 4 }, 'revoke']);
  });

  it('is not shown to a user who cannot manage settings', async () => {
    render(
      <AppProviders store={makeStore(signedIn(EDITOR))} config={TENANT}>
        <SupportAccess />
      </AppProviders>,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Support access')).not.toBeInTheDocument();
  });
});

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { makeStore } from '@/app/store';
import { signedIn, TENANT } from '@/test/render';
import { server } from '@/test/server';
import { OutgoingMessages } from '../components/OutgoingMessages';

const FAILED = {
  id: 'e1',
  kind: 'invitation',
  to: 'invitee@example.com',
  subject: 'You are invited to Acme',
  status: 'failed',
  attempts: 6,
  lastError: 'SMTPServerDisconnected: Connection unexpectedly closed',
  createdAt: '2026-11-25T10:00:00Z',
};

describe('Outgoing messages (settings)', () => {
  it('shows what waits to be sent, what is stuck, and sends a failed email again', async () => {
    let emails = [FAILED];
    const retried: string[] = [];
    server.use(
      http.get('*/api/outgoing', () =>
        HttpResponse.json({
          success: true,
          kinds: [
            { kind: 'core.send_email', label: 'Emails', waiting: 1, sending: 0, stuck: 0 },
            { kind: 'webhooks.deliver', label: 'Webhook deliveries', waiting: 0, sending: 2, stuck: 3 },
          ],
          emails,
        }),
      ),
      http.post('*/api/outgoing/emails/:id/retry', ({ params }) => {
        retried.push(String(params.id));
        emails = [];
        return HttpResponse.json({ success: true, message: 'The email will be sent again' }, { status: 202 });
      }),
    );
    const user = userEvent.setup();
    render(
      <AppProviders store={makeStore(signedIn())} config={TENANT}>
        <OutgoingMessages />
      </AppProviders>,
    );
    expect(await screen.findByText(/1 waiting to try again/)).toBeInTheDocument();
    expect(screen.getByText(/2 being sent, 3 stuck/)).toBeInTheDocument();
    expect(screen.getByText(/Nothing is lost/)).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Emails not sent' });
    expect(within(list).getByText('Failed')).toBeInTheDocument();
    expect(within(list).getByText(/Connection unexpectedly closed/)).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Send again: You are invited to Acme to invitee@example.com' }));
    expect(await screen.findByText('The email will be sent again')).toBeInTheDocument();
    expect(retried).toEqual(['e1']);
    // The list is read again after the retry; the email leaves it once the reply arrives.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Emails not sent' })).not.toBeInTheDocument());
    expect(screen.getByText(/1 waiting to try again/)).toBeInTheDocument();
  });

  it('says so when nothing waits', async () => {
    server.use(http.get('*/api/outgoing', () => HttpResponse.json({ success: true, kinds: [], emails: [] })));
    render(
      <AppProviders store={makeStore(signedIn())} config={TENANT}>
        <OutgoingMessages />
      </AppProviders>,
    );
    expect(await screen.findByText('Nothing is waiting to be sent.')).toBeInTheDocument();
  });
});

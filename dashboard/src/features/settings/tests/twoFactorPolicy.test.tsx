import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { makeStore } from '@/app/store';
import { signedIn, TENANT } from '@/test/render';
import { server } from '@/test/server';
import { TwoFactorPolicy } from '../components/TwoFactorPolicy';

describe('Require two-factor sign-in (settings)', () => {
  it('asks before requiring it and says how many users are without it', async () => {
    let required = false;
    const sent: unknown[] = [];
    server.use(
      http.get('*/api/client/two-factor-policy', () => HttpResponse.json({ success: true, required, usersWithoutTwoFactor: 2 })),
      http.put('*/api/client/two-factor-policy', async ({ request }) => {
        const body = (await request.json()) as { required: boolean };
        sent.push(body);
        required = body.required;
        return HttpResponse.json({ success: true, message: required ? 'Two-factor sign-in is now required.' : 'No longer required.', required, usersWithoutTwoFactor: 2 });
      }),
    );
    const user = userEvent.setup();
    render(
      <AppProviders store={makeStore(signedIn())} config={TENANT}>
        <TwoFactorPolicy />
      </AppProviders>,
    );
    expect(await screen.findByText(/2 active users have not set it up yet/)).toBeInTheDocument();
    const box = screen.getByLabelText('Require two-factor sign-in for everyone');
    expect(box).not.toBeChecked();
    await user.click(box);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/2 users without it/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Require it' }));
    expect(await screen.findByText('Two-factor sign-in is now required.')).toBeInTheDocument();
    expect(await screen.findByText(/Required for everyone/)).toBeInTheDocument();
    await user.click(screen.getByLabelText('Require two-factor sign-in for everyone'));
    expect(await screen.findByText(/Not required: each user decides/)).toBeInTheDocument();
    expect(sent).toEqual([{ required: true }, { required: false }]);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { capabilitiesOf, roleOfToken } from '@/test/roles';
import { server } from '@/test/server';

const editor = { userId: 'u-2', username: 'bob', role: 'editor' as const };
const BOB = { id: 'u-2', userId: 'u-2', username: 'bob', email: 'bob@x.test', role: 'editor', status: 'active', lastLogin: null, twoFactorEnabled: false };
const CODES = ['aaaaa-bbbbb', 'ccccc-ddddd', 'eeeee-fffff', 'ggggg-hhhhh', 'jjjjj-kkkkk', 'mmmmm-nnnnn', 'ppppp-qqqqq', 'rrrrr-sssss', 'ttttt-uuuuu', 'vvvvv-wwwww'];
const OFF = { success: true, enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
const ON = { success: true, enabled: true, enabledAt: '2026-01-02T03:04:05Z', recoveryCodesLeft: 10, required: false };

function me(state: { twoFactorEnabled: boolean; twoFactorRequired: boolean }) {
  return http.get('*/api/auth/me', ({ request }) => {
    const role = roleOfToken(request.headers.get('Authorization'));
    return HttpResponse.json({ success: true, user: { id: 'u-2', username: 'bob', role }, capabilities: capabilitiesOf(role), ...state });
  });
}

describe('two-factor sign-in on my account', () => {
  it('sets it up with the QR code and manual key, then shows the recovery codes once', async () => {
    let enabled = false;
    let confirmed: unknown;
    server.use(
      me({ twoFactorEnabled: false, twoFactorRequired: false }),
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: BOB })),
      http.get('*/api/auth/2fa', () => HttpResponse.json(enabled ? ON : OFF)),
      http.post('*/api/auth/2fa/setup', () =>
        HttpResponse.json({
          success: true,
          message: 'Scan the QR code',
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/CMS:bob%40x.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=CMS',
          qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
        }),
      ),
      http.post('*/api/auth/2fa/confirm', async ({ request }) => {
        confirmed = await request.json();
        enabled = true;
        return HttpResponse.json({ success: true, message: 'Two-factor sign-in is on.', recoveryCodes: CODES });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/account', { session: signedIn(editor) });
    const section = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    await user.click(await within(section).findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await within(section).findByRole('img', { name: 'QR code of your authenticator key' })).toBeInTheDocument();
    expect(within(section).getByTestId('manual-key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    const code = within(section).getByLabelText('Code from the app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '12');
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    expect(await within(section).findByText('Enter the 6-digit code your app shows')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    const list = await within(section).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CODES);
    expect(confirmed).toEqual({ code: '123456' });
    expect(within(section).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(await within(section).findByText(/You have 10 recovery codes left/)).toBeInTheDocument();
    expect(within(section).queryByText('aaaaa-bbbbb')).not.toBeInTheDocument();
  });

  it('turns it off with the password and a code, showing the server field errors', async () => {
    let enabled = true;
    server.use(
      me({ twoFactorEnabled: true, twoFactorRequired: false }),
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: { ...BOB, twoFactorEnabled: true } })),
      http.get('*/api/auth/2fa', () => HttpResponse.json(enabled ? ON : OFF)),
      http.post('*/api/auth/2fa/disable', async ({ request }) => {
        const body = (await request.json()) as { code: string };
        if (body.code !== '123456') {
          return HttpResponse.json(
            { success: false, error: 'validation_error', code: 'two_factor_invalid', message: 'That code is not right.', errors: [{ field: 'code', message: 'That code is not right.' }] },
            { status: 400 },
          );
        }
        enabled = false;
        return HttpResponse.json({ success: true, message: 'Two-factor sign-in is off.' });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/account', { session: signedIn(editor) });
    const section = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    await user.click(await within(section).findByRole('button', { name: 'Turn off' }));
    await user.click(within(section).getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await within(section).findByText('Password is required')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('Password'), 'secret123');
    await user.type(within(section).getByLabelText(/Code from your authenticator app/), '000000');
    await user.click(within(section).getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await within(section).findByText('That code is not right.')).toBeInTheDocument();
    await user.clear(within(section).getByLabelText(/Code from your authenticator app/));
    await user.type(within(section).getByLabelText(/Code from your authenticator app/), '123456');
    await user.click(within(section).getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await within(section).findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
  });

  it('sends a user the company requires it of to the account page, with the reason', async () => {
    server.use(
      me({ twoFactorEnabled: false, twoFactorRequired: true }),
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: BOB })),
      http.get('*/api/auth/2fa', () => HttpResponse.json({ ...OFF, required: true })),
    );
    const { router } = renderApp('/dashboard/posts', { session: signedIn(editor) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/account'));
    expect(router.state.location.hash).toBe('#two-factor');
    expect(await screen.findByText(/Your company requires two-factor sign-in\. Set it up here/)).toBeInTheDocument();
  });
});

describe("an admin resets another user's two-factor sign-in", () => {
  it('asks first, then resets', async () => {
    let reset = false;
    server.use(
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: { ...BOB, twoFactorEnabled: !reset } })),
      http.post('*/api/users/u-2/2fa/reset', () => {
        reset = true;
        return HttpResponse.json({ success: true, user: { ...BOB, twoFactorEnabled: false } });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-2', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Reset two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/will sign in with their password only/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(/Two-factor sign-in of bob was reset/)).toBeInTheDocument();
    expect(reset).toBe(true);
    expect(await screen.findByText(/Off\. bob can turn it on/)).toBeInTheDocument();
  });
});

// Account flows that go through email: the backend sends to the harness's SMTP server
// (startMailCatcher) and the flows read the messages there.
import { expect } from './harness.mjs';

/** Forgot password end to end: ask on the sign-in page, open the emailed link, set a new
 *  password, sign in with it; the used link no longer works. Returns the new password. */
export async function forgotPasswordFlow({ run, browser, tenant, shot, mail, admin, companyName }) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const snap = (name) => page.screenshot({ path: shot.path(name), fullPage: true });
  const newPassword = `${admin.password}-new`;
  let link;
  let changed = false;
  try {
    await run.step('forgot password: asked from the sign-in page, same reply for an unknown address', async () => {
      await page.goto(`${tenant}/login`);
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      const reply = () => page.getByRole('status').filter({ hasText: 'If an account with this email exists' });
      const unknown = await reply().innerText();
      await page.goto(`${tenant}/forgot-password`);
      await page.getByLabel('Email').fill(admin.email);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      const known = await reply().innerText();
      expect(known === unknown, `the same reply for a known and an unknown address ("${known}" / "${unknown}")`);
      await snap('30-forgot-password-sent');
    });

    await run.step('forgot password: the email names the company and links to its host', async () => {
      const message = await mail.waitFor(admin.email, /Reset your/);
      expect(message.subject.includes(companyName), `subject names the company: ${message.subject}`);
      expect(message.html.includes(companyName), 'the HTML part names the company');
      link = message.links.find((u) => u.includes('/reset-password?'));
      expect(link && link.startsWith(`${tenant}/reset-password?`), `a link to the company's host: ${link}`);
      expect(!mail.messages().some((m) => m.to.startsWith('nobody-')), 'no email to the unknown address');
    });

    await run.step('forgot password: the link sets a new password, which signs in', async () => {
      await page.goto(link);
      await page.getByText(admin.email).waitFor();
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Repeat the new password').fill(newPassword);
      await snap('31-reset-password');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.waitForURL(`${tenant}/login`);
      await page.getByText('Your password has been changed').waitFor();
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`${tenant}/dashboard`);
      changed = true;
    });

    await run.step('forgot password: the used link is refused and offers a new one', async () => {
      await page.goto(link);
      await page.getByRole('alert').filter({ hasText: 'invalid or has expired' }).waitFor();
      await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
      await snap('32-reset-link-used');
    });
  } finally {
    await context.close();
  }
  return changed ? newPassword : admin.password;
}

/** Invite by email from the Users screen, accept from the emailed link, land signed in. */
export async function invitationFlow({ run, browser, tenant, shot, mail, admin, sub }) {
  const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const guestContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  adminContext.setDefaultTimeout(20_000);
  guestContext.setDefaultTimeout(20_000);
  const page = await adminContext.newPage();
  const guest = await guestContext.newPage();
  const snap = (p, name) => p.screenshot({ path: shot.path(name), fullPage: true });
  const invitee = { email: `invitee@${sub}.example.com`, username: `invitee${sub}`, password: 'invitee-password-1' };
  let link;
  try {
    await run.step('invitations: an admin invites by email with a role; the invitation is pending', async () => {
      await page.goto(`${tenant}/login`);
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password', { exact: true }).fill(admin.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`${tenant}/dashboard`);
      await page.goto(`${tenant}/dashboard/users`);
      const form = page.getByRole('form', { name: 'Invite by email' });
      await form.getByLabel('Email').fill(invitee.email);
      await form.getByLabel('Role').selectOption('editor');
      await form.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${invitee.email}`).waitFor();
      await page.getByRole('table', { name: 'Pending invitations' }).getByText(invitee.email).waitFor();
      await snap(page, '33-invitations');
    });

    await run.step('invitations: the email links to the company host; the invitee chooses a username and lands signed in', async () => {
      const message = await mail.waitFor(invitee.email, /invited/);
      link = message.links.find((u) => u.includes('/accept-invite?'));
      expect(link && link.startsWith(`${tenant}/accept-invite?`), `a link to the company's host: ${link}`);
      await guest.goto(link);
      await guest.getByText(invitee.email).waitFor();
      await guest.getByLabel('Username').fill(invitee.username);
      await guest.getByLabel('Password', { exact: true }).fill(invitee.password);
      await snap(guest, '34-accept-invite');
      await guest.getByRole('button', { name: 'Create my account' }).click();
      await guest.waitForURL(`${tenant}/dashboard`);
      const me = await guest.evaluate(async () => {
        const reply = await fetch('/api/auth/me', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
        return (await reply.json()).user;
      });
      expect(me?.username === invitee.username && me?.role === 'editor', `signed in as the invited editor: ${JSON.stringify(me)}`);
      await snap(guest, '35-invitee-signed-in');
    });

    await run.step('invitations: accepted ones leave the pending list; the used link is refused', async () => {
      await page.reload();
      await page.getByRole('cell', { name: invitee.username, exact: true }).waitFor();
      await page.getByText('No pending invitations.').waitFor();
      const other = await browser.newContext();
      const again = await other.newPage();
      await again.goto(link);
      await again.getByRole('alert').filter({ hasText: 'invalid' }).waitFor();
      await other.close();
    });
  } finally {
    await adminContext.close();
    await guestContext.close();
  }
}

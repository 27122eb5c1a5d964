// Account flows that go through email: the backend sends to the harness's SMTP server
// (startMailCatcher) and the flows read the messages there.
import { createHmac } from 'node:crypto';
import { expect } from './harness.mjs';

/** RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30-second steps) of a base32 key, for the step `offset`
 *  steps from now: what an authenticator app shows. */
export function totp(base32Key, offset = 0) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Key.replace(/[\s=]/g, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000 / 30) + offset));
  const digest = createHmac('sha1', key).update(counter).digest();
  const start = digest[digest.length - 1] & 0x0f;
  const number = (digest.readUInt32BE(start) & 0x7fffffff) % 1_000_000;
  return String(number).padStart(6, '0');
}

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
      // (other flows of the run leave invitations of their own, e.g. an import's authors)
      await page.getByText('Loading invitations').waitFor({ state: 'detached' });
      const stillPending = await page.getByRole('button', { name: `Resend the invitation to ${invitee.email}` }).count();
      expect(stillPending === 0, `the accepted invitation left the pending list (${stillPending} left)`);
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

/** Two-factor sign-in: a user enables it on their account page (the key read from the manual key
 *  shown, codes computed here), signs out, signs in with a code, signs out, signs in with a recovery
 *  code (and is told by email). */
export async function twoFactorFlow({ run, browser, tenant, shot, mail, admin, sub }) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const snap = (name) => page.screenshot({ path: shot.path(name), fullPage: true });
  const person = { email: `twofa@${sub}.example.com`, username: `twofa${sub}`, password: 'twofa-password-1' };
  let key;
  let recovery;
  let confirmedStep;
  const signIn = async () => {
    await page.goto(`${tenant}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  };
  const landed = async () => {
    try {
      // signed in: the dashboard, or the page the sign-out left (the account page)
      await page.waitForURL((url) => url.pathname.startsWith('/dashboard'), { timeout: 15_000 });
    } catch {
      const said = [...(await page.getByRole('alert').allInnerTexts()), ...(await page.getByRole('status').allInnerTexts())];
      throw new Error(`not signed in (${page.url()}): ${said.join(' | ') || 'no message'}`);
    }
  };
  const signOut = async () => {
    await page.getByRole('button', { name: 'Open menu' }).click(); // a phone's width: the sidebar is a drawer
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${tenant}/login`);
  };
  try {
    await run.step('two-factor: a user sets it up from the account page (QR code, manual key, a code)', async () => {
      await page.goto(`${tenant}/login`);
      const created = await page.evaluate(async ({ admin: a, person: p }) => {
        const json = { 'Content-Type': 'application/json' };
        const login = await (await fetch('/api/auth/login', { method: 'POST', headers: json, body: JSON.stringify({ email: a.email, password: a.password }) })).json();
        const reply = await fetch('/api/auth/register-user', {
          method: 'POST',
          headers: { ...json, Authorization: `Bearer ${login.token}` },
          body: JSON.stringify({ username: p.username, email: p.email, password: p.password, role: 'author' }),
        });
        return reply.status;
      }, { admin, person });
      expect(created === 201, `the admin created the user (${created})`);
      await signIn();
      await landed();
      await page.goto(`${tenant}/dashboard/account`);
      const section = page.getByRole('region', { name: 'Two-factor sign-in' });
      await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      await section.getByRole('img', { name: 'QR code of your authenticator key' }).waitFor();
      key = (await section.getByTestId('manual-key').innerText()).replace(/\s/g, '');
      expect(/^[A-Z2-7]{32}$/.test(key), `a base32 manual key is shown: ${key}`);
      await snap('40-two-factor-setup');
      confirmedStep = Math.floor(Date.now() / 30_000);
      await section.getByLabel('Code from the app').fill(totp(key));
      await section.getByRole('button', { name: 'Turn on' }).click();
      const list = section.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      recovery = (await list.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
      expect(recovery.length === 10, `10 recovery codes are shown (${recovery.length})`);
      await snap('41-two-factor-recovery-codes');
      await section.getByRole('button', { name: 'I have saved them' }).click();
      await section.getByText('You have 10 recovery codes left').waitFor();
      await signOut();
    });

    await run.step('two-factor: the password alone is not enough; the code from the app signs in', async () => {
      await signIn();
      const code = page.getByLabel('Authentication code');
      await code.waitFor();
      expect((await code.getAttribute('autocomplete')) === 'one-time-code', 'the code field is a one-time-code field');
      expect(page.url().startsWith(`${tenant}/login`), 'still on the sign-in page');
      await snap('42-two-factor-step');
      // the step the confirmation used is spent: a later step's code within the window (one step
      // either side of now) signs in
      const offset = Math.max(-1, confirmedStep + 1 - Math.floor(Date.now() / 30_000));
      expect(offset <= 1, 'a step after the confirmation is within the window');
      await code.fill(totp(key, offset));
      await page.getByRole('button', { name: 'Verify' }).click();
      await landed();
      await signOut();
    });

    await run.step('two-factor: a recovery code signs in once, and the user gets an email about it', async () => {
      await signIn();
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recovery[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await landed();
      const message = await mail.waitFor(person.email, /recovery code/);
      expect(message.text.includes('9 recovery codes left'), `the email says how many are left: ${message.text}`);
      await signOut();
      await signIn();
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recovery[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
      await snap('43-two-factor-recovery-used');
    });
  } finally {
    await context.close();
  }
}

/** The root domain's "Find my companies by email": the emailed link opens the company's sign-in
 *  page with the address filled in. */
export async function findCompaniesFlow({ run, browser, root, tenant, shot, mail, admin, companyName }) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  try {
    await run.step('root sign-in: find my companies by email; the email links to the sign-in page', async () => {
      await page.goto(`${root}/login`);
      await page.getByLabel('Your email').fill(admin.email);
      await page.getByRole('button', { name: 'Email me my sign-in pages' }).click();
      await page.getByRole('status').filter({ hasText: 'If this email has an account' }).waitFor();
      await page.screenshot({ path: shot.path('44-find-companies'), fullPage: true });
      const message = await mail.waitFor(admin.email, /sign-in pages/);
      expect(message.text.includes(companyName), `the email names the company: ${message.text}`);
      const link = message.links.find((u) => u.startsWith(`${tenant}/login?email=`));
      expect(link, `a sign-in link to the company's host: ${message.links.join(', ')}`);
      await page.goto(link);
      const email = page.getByLabel('Email');
      await email.waitFor();
      expect((await email.inputValue()) === admin.email, 'the address is filled in');
      await page.getByLabel('Password', { exact: true }).fill(admin.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`${tenant}/dashboard`);
    });
  } finally {
    await context.close();
  }
}

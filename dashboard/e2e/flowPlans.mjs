// Plans flow: an operator account (manage.py operator_create) signs in to the console on the root
// domain with its password and an authenticator code, finds the company, lowers its staff limit;
// the company's admin then meets the refusal with the way out; the admin grants support access and
// the operator signs in as the admin (the dashboard's banner), ends it, and the admin revokes. Screenshots at 390 and 1280 px, no
// sideways scrolling, axe-core with no serious or critical violation.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, REPO } from './harness.mjs';
import { axeViolations, layoutProblems } from './flowScreens.mjs';

const WIDTHS = { 390: 844, 1280: 800 };

function manage(args, env) {
  return execFileSync(path.join(REPO, '.venv', 'bin', 'python'), ['manage.py', ...args], {
    cwd: REPO, env: { ...process.env, ...env, PYTHONPATH: `${REPO}/platform:${REPO}` }, encoding: 'utf8',
  });
}

function totp(secret) {
  return execFileSync(path.join(REPO, '.venv', 'bin', 'python'), ['-c', 'import pyotp, sys; print(pyotp.TOTP(sys.argv[1]).now())', secret],
    { encoding: 'utf8' }).trim();
}

async function checkScreen(page, what) {
  const layout = await layoutProblems(page);
  expect(layout.length === 0, `${what}: ${layout.join('; ')}`);
  const axe = await axeViolations(page);
  expect(axe.length === 0, `${what}: ${axe.map((v) => `${v.id} ${v.help} ${v.nodes.join(' | ')}`).join('; ')}`);
}

export async function plansFlow({ run, browser, root, tenant, sub, shot, admin, databaseEnv }) {
  const operator = { email: `ops-${sub}@platform.example`, password: 'operator-password-123' };
  let secret = '';
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const console_ = await context.newPage();
  const snap = (page, name) => page.screenshot({ path: shot.path(name), fullPage: true });
  try {
    await run.step('an operator account is made with its authenticator key', async () => {
      const out = manage(['operator_create', operator.email, '--password', operator.password], databaseEnv);
      secret = out.match(/Authenticator key: (\w+)/)[1];
      expect(secret.length >= 16, `a key was printed: ${out}`);
    });

    await run.step('the console asks for the password, then a code', async () => {
      await console_.goto(`${root}/operator/`);
      await console_.getByLabel('Email').fill(admin.email);
      await console_.getByLabel('Password').fill(admin.password);
      await console_.getByRole('button', { name: 'Continue' }).click();
      await console_.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
      await snap(console_, '70-operator-company-admin-refused');
      await console_.getByLabel('Email').fill(operator.email);
      await console_.getByLabel('Password').fill(operator.password);
      await console_.getByRole('button', { name: 'Continue' }).click();
      await console_.getByLabel('Code').fill(totp(secret));
      await console_.getByRole('button', { name: 'Sign in' }).click();
      await console_.getByRole('heading', { name: 'Companies' }).waitFor();
    });

    await run.step('the companies list finds the company (1280 and 390 px)', async () => {
      await console_.getByLabel('Name, subdomain or email').fill(sub);
      await console_.getByRole('button', { name: 'Search' }).click();
      await console_.getByRole('link', { name: 'E2E Test Company' }).waitFor();
      for (const [width, height] of Object.entries(WIDTHS)) {
        await console_.setViewportSize({ width: Number(width), height });
        await checkScreen(console_, `companies at ${width}`);
        await snap(console_, `71-operator-companies-${width}`);
      }
    });

    await run.step('the company page lowers the staff limit (1280 and 390 px)', async () => {
      await console_.getByRole('link', { name: 'E2E Test Company' }).click();
      await console_.getByRole('heading', { name: /E2E Test Company/ }).waitFor();
      await console_.getByLabel(/Staff accounts/).fill('1');
      await console_.getByRole('button', { name: 'Save plan' }).click();
      await console_.getByRole('cell', { name: 'plan_changed' }).first().waitFor();
      for (const [width, height] of Object.entries(WIDTHS)) {
        await console_.setViewportSize({ width: Number(width), height });
        await checkScreen(console_, `company page at ${width}`);
        await snap(console_, `72-operator-company-${width}`);
      }
      await console_.getByRole('link', { name: 'Audit log' }).click();
      await console_.getByRole('table', { name: 'Operator actions' }).waitFor();
      await snap(console_, '73-operator-audit');
    });

    const dashboard = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await dashboard.newPage();
    try {
      await run.step('the company admin meets the staff limit with the way out (1280 and 390 px)', async () => {
        await page.goto(`${tenant}/login`);
        await page.getByLabel('Email').fill(admin.email);
        await page.getByLabel('Password', { exact: true }).fill(admin.password);
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.getByText('Total Posts').waitFor();
        for (const [width, height] of Object.entries(WIDTHS)) {
          await page.setViewportSize({ width: Number(width), height });
          await page.goto(`${tenant}/dashboard/users`);
          const form = page.getByRole('form', { name: 'Invite by email' });
          await form.getByLabel('Email').fill(`late-${width}@${sub}.example.com`);
          await form.getByRole('button', { name: 'Send invitation' }).click();
          const notice = page.getByRole('alert').filter({ hasText: 'Your plan allows 1 staff account.' });
          await notice.waitFor();
          await notice.scrollIntoViewIfNeeded();
          await checkScreen(page, `plan limit at ${width}`);
          await snap(page, `74-plan-limit-${width}`);
        }
        await page.getByRole('link', { name: 'See your plan and usage' }).click();
        await page.getByRole('heading', { name: 'Usage' }).waitFor();
        await page.getByText('Limit reached').first().waitFor();
        await snap(page, '75-settings-usage-390');
        await page.setViewportSize({ width: 1280, height: 800 });
        await snap(page, '75-settings-usage-1280');
      });
    } finally {
      await dashboard.close();
    }

    await run.step('support access: the admin grants it, the operator signs in as the admin, the banner shows (1280 and 390 px)', async () => {
      const owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const settings = await owner.newPage();
      try {
        await settings.goto(`${tenant}/login`);
        await settings.getByLabel('Email').fill(admin.email);
        await settings.getByLabel('Password', { exact: true }).fill(admin.password);
        await settings.getByRole('button', { name: 'Sign In' }).click();
        await settings.getByText('Total Posts').waitFor();
        await settings.goto(`${tenant}/dashboard/settings`);
        const card = settings.getByRole('region', { name: 'Support access' });
        await card.getByLabel('For').selectOption('2');
        await card.getByRole('button', { name: 'Grant support access' }).click();
        await card.getByText(/Support may sign in until/).waitFor();
        await card.scrollIntoViewIfNeeded();
        await snap(settings, '76-support-access-granted');

        await console_.setViewportSize({ width: 1280, height: 800 });
        await console_.goto(`${root}/operator/companies/${sub}`);
        await console_.getByRole('button', { name: `Sign in as ${admin.username}` }).click();
        const open = console_.getByRole('link', { name: 'Open the dashboard' });
        await open.waitFor();
        await checkScreen(console_, 'support link page');
        await snap(console_, '77-operator-sign-in-as');
        const address = await open.getAttribute('href');
        expect(address.startsWith(`${tenant}/support-session#token=`), `the link opens the company's dashboard: ${address}`);

        const supportContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const support = await supportContext.newPage();
        try {
          await support.goto(address);
          const banner = support.getByTestId('support-banner');
          await banner.waitFor();
          expect((await banner.textContent()).includes(`Signed in by support as ${admin.username}`), 'the banner names the user');
          for (const [width, height] of Object.entries(WIDTHS)) {
            await support.setViewportSize({ width: Number(width), height });
            await support.goto(`${tenant}/dashboard/posts`);
            await banner.waitFor();
            await checkScreen(support, `support banner at ${width}`);
            await snap(support, `78-support-banner-${width}`);
          }
          // the link worked once
          const again = await supportContext.newPage();
          await again.goto(address);
          await again.getByRole('alert').filter({ hasText: 'invalid, was used already or has expired' }).waitFor();
          await again.close();
          await support.getByRole('button', { name: 'End support session' }).click();
          await support.waitForURL(/\/login/);
        } finally {
          await supportContext.close();
        }

        await settings.reload();
        await card.getByText(/ended/).first().waitFor();
        await card.getByRole('button', { name: 'Revoke support access' }).click();
        await card.getByRole('button', { name: 'Grant support access' }).waitFor();
        await settings.goto(`${tenant}/dashboard/activity`);
        await settings.getByText(`support (${operator.email}) as ${admin.username}`).first().waitFor();
        await snap(settings, '79-activity-support');
        await console_.goto(`${root}/operator/audit?company=${sub}`);
        await console_.getByRole('cell', { name: 'support_started' }).first().waitFor();
        await console_.getByRole('cell', { name: 'support_ended' }).first().waitFor();
      } finally {
        await owner.close();
      }
    });

    await run.step('the operator puts the plan back', async () => {
      await console_.goto(`${root}/operator/companies/${sub}`);
      await console_.getByLabel(/Staff accounts/).fill('');
      await console_.getByRole('button', { name: 'Save plan' }).click();
      await console_.getByRole('heading', { name: /E2E Test Company/ }).waitFor();
    });
  } finally {
    await context.close();
  }
}

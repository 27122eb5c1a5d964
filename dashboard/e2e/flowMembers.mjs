// Members: one added by hand with a new label, the list filtered by that label, a small Ghost members
// CSV imported (dry run, then the import in the background), the list exported as Ghost's members
// CSV, labels given to several at once; an editor manages them, a viewer reads them. Each screen at
// 360 and 1280 px: no sideways scrolling, primary actions in sight, axe-clean.
import { readFileSync } from 'node:fs';
import { noProblems } from './flowScreens.mjs';
import { expect } from './harness.mjs';
import { call, PASSWORD, signIn, toast, widths } from './flowSite.mjs';

/** A members CSV as Ghost exports it: two new readers, one who is a member already, one line that is
 * not an address. */
function ghostCsv(sub, known) {
  return [
    'id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels',
    `6501a1b2c3d4e5f6a7b8c901,grace-${sub}@example.com,Grace Hopper,,true,false,,2024-01-02T10:00:00.000Z,,"Ghost, Early"`,
    `6501a1b2c3d4e5f6a7b8c902,alan-${sub}@example.com,Alan Turing,A note,false,true,,2024-02-03T10:00:00.000Z,,`,
    `6501a1b2c3d4e5f6a7b8c903,${known},,,true,false,,2024-03-04T10:00:00.000Z,,Ghost`,
    '6501a1b2c3d4e5f6a7b8c904,not-an-address,Nobody,,true,false,,2024-03-04T10:00:00.000Z,,',
    '',
  ].join('\n');
}

export async function membersFlow({ run, browser, page, tenant, sub, shot }) {
  const problems = [];
  const ada = `ada-${sub}@example.com`;
  const label = 'Early readers';

  await run.step('Members: the empty list; add a member with a new label', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByText('No members yet. Add one, or import a CSV.').waitFor();
    await widths(page, shot, '110-members-empty', problems);
    await page.locator('header').getByRole('link', { name: 'Add member' }).click();
    await page.getByRole('heading', { name: 'Add member', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByLabel('Email').fill(ada);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByRole('textbox', { name: 'New label' }).fill(label);
    await page.keyboard.press('Enter');
    expect(await page.getByRole('checkbox', { name: label }).isChecked(), 'the new label is chosen');
    await widths(page, shot, '111-member-new', problems);
    await page.getByRole('button', { name: 'Add member' }).click();
    await toast(page, 'Member added');
    await page.waitForURL(`${tenant}/dashboard/members`);
    const row = page.getByRole('row').filter({ hasText: ada });
    await row.getByText(label).waitFor();
    await row.getByText('Ada Lovelace').waitFor();
  });

  await run.step('filter by label: the address keeps it; only that label\'s members', async () => {
    const made = await call(page, 'POST', '/api/members', { email: `bob-${sub}@example.com`, name: 'Bob' });
    expect(made.status === 201, `a second member (${made.status} ${made.text.slice(0, 200)})`);
    await page.reload();
    await page.getByRole('row').filter({ hasText: `bob-${sub}@example.com` }).waitFor();
    const labels = (await call(page, 'GET', '/api/members/labels')).body.labels;
    const early = labels.find((l) => l.name === label);
    await page.getByLabel('Label', { exact: true }).selectOption(early.id);
    await page.waitForURL(`${tenant}/dashboard/members?label=${early.id}`);
    await page.getByRole('row').filter({ hasText: `bob-${sub}@example.com` }).waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: ada }).waitFor();
    await page.getByText('1 member', { exact: true }).waitFor();
    await widths(page, shot, '112-members-by-label', problems);
    noProblems(problems);
  });

  await run.step('import a small Ghost members CSV: the dry run, then the import', async () => {
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.getByRole('heading', { name: 'Import members', level: 1 }).waitFor();
    await page.getByLabel('Labels for every imported member').fill(`Imported ${sub}`);
    await page.getByLabel('Members CSV file').setInputFiles({ name: 'ghost-members.csv', mimeType: 'text/csv', buffer: Buffer.from(ghostCsv(sub, ada)) });
    const dryRun = page.getByRole('table', { name: 'Dry run' });
    await dryRun.waitFor({ timeout: 60_000 });
    const cell = async (name) => (await dryRun.getByRole('row', { name: new RegExp(`^${name}`) }).locator('td').innerText()).trim();
    expect((await cell('New members')) === '2', `2 new members (${await cell('New members')})`);
    expect((await cell('Already members')) === '1', `1 member already (${await cell('Already members')})`);
    expect((await cell('Not an address')) === '1', `1 line not an address (${await cell('Not an address')})`);
    await page.getByText('(Ghost)').waitFor();
    await widths(page, shot, '113-members-import-dry-run', problems);
    await page.getByRole('button', { name: 'Import 3 members' }).click();
    await page.getByText('Import complete: 2 added, 1 updated.').waitFor({ timeout: 90_000 });
    await widths(page, shot, '114-members-imported', problems);
    await page.getByRole('link', { name: 'See the members' }).click();
    for (const email of [`grace-${sub}@example.com`, `alan-${sub}@example.com`]) await page.getByRole('row').filter({ hasText: email }).waitFor();
    const grace = page.getByRole('row').filter({ hasText: `grace-${sub}@example.com` });
    for (const name of ['Ghost', 'Early', `Imported ${sub}`]) await grace.getByText(name, { exact: true }).waitFor();
    await page.getByRole('row').filter({ hasText: `alan-${sub}@example.com` }).getByText('Complimentary').waitFor();
    const known = (await call(page, 'GET', `/api/members?search=${encodeURIComponent(ada)}`)).body.members[0];
    expect(known.labels.map((l) => l.name).sort().join(',') === ['Early readers', 'Ghost', `Imported ${sub}`].sort().join(','), `the member already there got the file's labels (${known.labels.map((l) => l.name)})`);
    noProblems(problems);
  });

  await run.step('export: Ghost\'s members CSV of everyone, and of a filter', async () => {
    const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export all members (CSV)' }).click()]);
    const csv = readFileSync(await all.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0] === 'id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels', `Ghost's columns (${lines[0]})`);
    expect(lines.length === 5, `four members (${lines.length - 1})`);
    for (const email of [ada, `bob-${sub}@example.com`, `grace-${sub}@example.com`, `alan-${sub}@example.com`]) expect(csv.includes(email), `${email} exported`);
    expect(all.suggestedFilename() === 'members.csv', `the file's name (${all.suggestedFilename()})`);
    await page.getByLabel('Status', { exact: true }).selectOption('comped');
    await page.getByText('1 member', { exact: true }).waitFor();
    const [some] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export these members (CSV)' }).click()]);
    const comped = readFileSync(await some.path(), 'utf8').trim().split(/\r?\n/);
    expect(comped.length === 2 && comped[1].includes(`alan-${sub}@example.com`), `the filter's member only (${comped.slice(1)})`);
    await page.getByLabel('Status', { exact: true }).selectOption('');
  });

  await run.step('labels for several members at once', async () => {
    await page.getByText('4 members', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Choose all on this page' }).check();
    await page.getByRole('checkbox', { name: `Choose bob-${sub}@example.com` }).uncheck();
    await page.getByText('3 chosen').waitFor();
    await page.getByRole('button', { name: 'Labels...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Labels of 3 members' });
    await dialog.getByLabel('Add labels').fill('Newsletter readers');
    await widths(page, shot, '115-members-bulk-labels', problems);
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'Labels changed on 3 members');
    await page.getByRole('row').filter({ hasText: ada }).getByText('Newsletter readers').waitFor();
    expect((await page.getByRole('row').filter({ hasText: `bob-${sub}@example.com` }).getByText('Newsletter readers').count()) === 0, 'not on the one left out');
    await widths(page, shot, '116-members-list', problems);
    noProblems(problems);
  });

  const people = ['editor', 'viewer'].map((role) => ({ role, username: `${role}${sub}`.slice(0, 30), email: `${role}@${sub}.example.com` }));
  await run.step('an editor manages members; a viewer reads them', async () => {
    for (const p of people) {
      const made = await call(page, 'POST', '/api/auth/register-user', { username: p.username, email: p.email, password: PASSWORD, role: p.role });
      expect(made.status === 201 || made.status === 409, `${p.role} (${made.status} ${made.text.slice(0, 200)})`);
    }
    for (const p of people) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      context.setDefaultTimeout(20_000);
      try {
        const other = await context.newPage();
        const otherShot = (n) => other.screenshot({ path: shot.path(n), fullPage: true });
        await signIn(other, tenant, p.email);
        await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
        const row = other.getByRole('row').filter({ hasText: ada });
        await row.waitFor();
        if (p.role === 'editor') {
          await other.locator('header').getByRole('link', { name: 'Add member' }).waitFor();
          await other.getByRole('link', { name: 'Import CSV' }).waitFor();
          await row.getByRole('button', { name: `Actions for ${ada}` }).click();
          await other.getByRole('menuitem', { name: 'Edit' }).click();
          await other.getByLabel('Note').fill('Met at the conference');
          await other.getByRole('button', { name: 'Save member' }).click();
          await toast(other, 'Member updated');
        } else {
          expect((await other.getByRole('link', { name: 'Add member' }).count()) === 0, 'no Add member for the viewer');
          expect((await other.getByRole('link', { name: 'Import CSV' }).count()) === 0, 'no import for the viewer');
          expect((await other.getByRole('checkbox').count()) === 0, 'nothing to choose for the viewer');
          await widths(other, otherShot, '117-members-viewer', problems);
          await row.getByRole('link').first().click();
          await other.getByText('Your role can read members, not change them').waitFor();
          expect(await other.getByLabel('Email').isDisabled(), 'the member is read only');
          expect((await other.getByLabel('Note').inputValue()) === 'Met at the conference', "the editor's note is there");
          expect((await other.getByRole('button', { name: 'Save member' }).count()) === 0, 'no save for the viewer');
          await widths(other, otherShot, '118-member-viewer', problems);
          const refused = await call(other, 'POST', '/api/members', { email: `eve-${sub}@example.com` });
          expect(refused.status === 403, `the server refuses the viewer too (${refused.status})`);
        }
      } finally {
        await context.close();
      }
    }
    noProblems(problems);
  });
}

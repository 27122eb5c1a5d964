// Third flow: every route at 360, 390, 768 and 1280 px (screenshots, no sideways scrolling of the
// document, primary actions inside the viewport, axe-core with no serious or critical
// violation), the keyboard (skip link, search combobox, filter popover, row menus, dialogs),
// toasts, and the JavaScript byte budgets.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from './harness.mjs';
import { editorColdJs, kb, signInToStats } from './measure.mjs';

export const WIDTHS = [360, 390, 768, 1280];
const HEIGHTS = { 360: 740, 390: 844, 768: 1024, 1280: 800 };
export const BUDGET = { signIn: 160 * 1024, editor: 450 * 1024 };

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2.x A/AA rules (2.0, 2.1, 2.2) on the page as shown. The library is evaluated
 * through the automation protocol, which the page's Content-Security-Policy does not govern.
 */
export async function axeViolations(page) {
  // Colours are judged once what moves has stopped: a toast fading in or out has its colours
  // blended with the page's for a few hundred milliseconds (seen: a success toast's title at 2.77:1
  // mid-fade, 4.5:1 and more when shown). Endless animations (spinners) are not waited for; after 5 s
  // the page is judged as it is.
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      null,
      { timeout: 5_000, polling: 100 },
    )
    .catch(() => {});
  const loaded = await page.evaluate(() => typeof window.axe !== 'undefined');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`),
    }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Layout problems a user would meet at this width. */
export async function layoutProblems(page) {
  return page.evaluate(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth})`);
    const vw = doc.clientWidth;
    const visible = (el) => {
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0 && !el.closest('[hidden]');
    };
    const inside = (el) => {
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.right > vw + 1) return false;
      // Not cut off by a scrolling box around it (a table scrolled sideways).
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (/(auto|scroll|hidden)/.test(s.overflowX)) {
          const pr = p.getBoundingClientRect();
          if (r.left < pr.left - 1 || r.right > pr.right + 1) return false;
        }
      }
      return true;
    };
    const primary = [
      ...document.querySelectorAll('.page-header-actions .btn-primary, .form-actions button[type=submit], .cell-actions button, .auth-card button[type=submit]'),
    ].filter(visible);
    for (const el of primary) {
      if (!inside(el)) out.push(`primary action out of sight sideways: ${el.getAttribute('aria-label') || el.textContent.trim()}`);
    }
    const save = [...document.querySelectorAll('.form-actions button[type=submit]')].filter(visible)[0];
    if (save) {
      const r = save.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight + 1) out.push(`the save button is below the fold (${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight})`);
    }
    return out;
  });
}

/** `page` at each of `sizes` (by default phone, 390 px, and desktop, 1280 px): its layout and axe
 * problems added to `problems`, a screenshot at each; then the viewport `after` (the flow's own size). */
export async function atWidths(page, shot, name, problems, { sizes = [[390, 844], [1280, 800]], after = { width: 1280, height: 800 } } = {}) {
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    for (const p of await layoutProblems(page)) problems.push(`${name} @${width}: ${p}`);
    for (const v of await axeViolations(page)) problems.push(`${name} @${width}: axe ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`);
    await shot(`${name}-w${width}`);
  }
  await page.setViewportSize(after);
}

/** Fails the step with every problem `atWidths` found (and empties the list). */
export const noProblems = (problems) => expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);

function routes(t) {
  return [
    ['dashboard', '/dashboard', { text: 'Total Posts' }],
    ['posts', '/dashboard/posts?status=all', { text: t.postTitle }],
    ['post-new', '/dashboard/posts/new', { css: '.ck-editor__editable' }],
    ['post-edit', `/dashboard/posts/edit/${t.postId}`, { css: '.ck-editor__editable' }],
    ['post-detail', `/dashboard/posts/${t.postSlug}`, { text: 'Published on' }],
    // Pages exist once the site flow has made one.
    ...(t.pageId
      ? [
          ['pages', '/dashboard/pages?status=all', { text: t.pageTitle }],
          ['page-edit', `/dashboard/pages/${t.pageId}`, { css: '.ck-editor__editable' }],
        ]
      : []),
    ['page-new', '/dashboard/pages/new', { css: '.ck-editor__editable' }],
    ['categories', '/dashboard/categories', { text: t.category }],
    ['category-new', '/dashboard/categories/new', { label: 'Name' }],
    ['category-edit', `/dashboard/categories/edit/${t.categoryId}`, { label: 'Name' }],
    ['tags', '/dashboard/tags', { text: t.tag }],
    ['tag-new', '/dashboard/tags/new', { label: 'Name' }],
    ['tag-edit', `/dashboard/tags/edit/${t.tagId}`, { label: 'Name' }],
    ['media', '/dashboard/media', { text: 'Page 1 of' }],
    ['members', '/dashboard/members', { text: 'The readers of your site' }],
    ['member-new', '/dashboard/members/new', { label: 'Email' }],
    ['members-import', '/dashboard/members/import', { text: 'A members CSV' }],
    ['ai-generator', '/dashboard/ai-generator', { label: 'What should the post be about?' }],
    ['users', '/dashboard/users', { text: t.username }],
    ['user-new', '/dashboard/users/new', { label: 'Username' }],
    ['user-edit', `/dashboard/users/edit/${t.userId}`, { label: 'Username' }],
    ['settings', '/dashboard/settings', { text: 'Company Information' }],
    ['settings-site', '/dashboard/settings/site', { label: 'Website address' }],
    ['webhooks', '/dashboard/settings/webhooks', { text: 'Tell your website when content changes' }],
    ['integrations', '/dashboard/settings/integrations', { text: 'Connect a tool' }],
    ['newsletters', '/dashboard/settings/newsletters', { text: 'The lists your members subscribe to' }],
    ['not-found', '/dashboard/no/such/page', { text: 'Oops! Page not found' }],
  ];
}

async function ready(page, want) {
  if (want.text) await page.getByText(want.text).first().waitFor();
  if (want.css) await page.locator(want.css).first().waitFor();
  if (want.label) await page.getByLabel(want.label, { exact: true }).first().waitFor();
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(150);
}

/** Every screen at every width; `signedOut` pages are visited in a context without a session. */
export async function screensFlow({ run, browser, page, tenant, root, shot, facts, admin }) {
  const failures = [];
  const check = async (name, width) => {
    const problems = await layoutProblems(page);
    const axe = await axeViolations(page);
    for (const p of problems) failures.push(`${name} @${width}: ${p}`);
    for (const v of axe) failures.push(`${name} @${width}: axe ${v.impact} ${v.id} (${v.help}): ${v.nodes.join(' | ')}`);
    await shot(`w${width}-${name}`);
  };

  await run.step('signed-out screens at 360, 390, 768 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const out = await context.newPage();
    const outShot = (name) => out.screenshot({ path: shot.path(name), fullPage: true });
    const local = [];
    for (const [name, url, want] of [
      ['login', `${tenant}/login`, { label: 'Email' }],
      ['login-created', `${tenant}/login?created=1`, { text: 'was created' }],
      ['root-login', `${root}/login`, { label: 'Company subdomain' }],
      ['register', `${root}/register`, { label: 'Company Name' }],
    ]) {
      await out.goto(url);
      await ready(out, want);
      for (const width of WIDTHS) {
        await out.setViewportSize({ width, height: HEIGHTS[width] });
        await out.waitForTimeout(100);
        for (const p of await layoutProblems(out)) local.push(`${name} @${width}: ${p}`);
        for (const v of await axeViolations(out)) local.push(`${name} @${width}: axe ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`);
        await outShot(`w${width}-${name}`);
      }
    }
    await context.close();
    expect(local.length === 0, `problems:\n  ${local.join('\n  ')}`);
  });

  await run.step('every dashboard route at 360, 390, 768 and 1280 px: no sideways scroll, actions in sight, axe clean', async () => {
    for (const [name, path, want] of routes(facts)) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${tenant}${path}`);
      await ready(page, want);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: HEIGHTS[width] });
        await page.waitForTimeout(120);
        await check(name, width);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(failures.length === 0, `${failures.length} problems:\n  ${failures.join('\n  ')}`);
  });

  await run.step('phone: the sidebar is a drawer behind the menu button; lists are cards with their actions', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${tenant}/dashboard/users`);
    await page.getByText(facts.username).first().waitFor();
    expect(!(await page.getByRole('navigation', { name: 'Main' }).isVisible()), 'no rail on a phone');
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Sidebar' });
    await drawer.waitFor();
    await shot('w360-drawer-open');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(await menu.evaluate((el) => el === document.activeElement), 'focus back on the menu button');
    // The row actions of the users list are on screen, and work.
    const actions = page.getByRole('button', { name: `Actions for ${facts.username}` });
    const box = await actions.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360, `row actions in sight (${JSON.stringify(box)})`);
    await actions.click();
    await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
    await shot('w360-users-row-menu');
    await page.keyboard.press('Escape');
    await menu.click();
    await drawer.getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await drawer.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  await run.step('phone: search results fit the screen; media shows two tiles a row and one line of paging', async () => {
    for (const width of [360, 430]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${tenant}/dashboard`);
      const box = page.getByRole('combobox', { name: 'Search' }).locator('visible=true').first();
      await box.fill(facts.sub);
      const list = page.getByRole('listbox', { name: 'Search results' }).locator('visible=true').first();
      await list.getByRole('option').first().waitFor();
      const r = await list.boundingBox();
      expect(r.x >= 0 && r.x + r.width <= width, `search results inside the screen at ${width} (${JSON.stringify(r)})`);
      await shot(`w${width}-search-results`);
      await page.goto(`${tenant}/dashboard/media`);
      await page.getByText(/Page 1 of/).waitFor();
      const tiles = await page.locator('.media-tile').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
      const perRow = tiles.filter((t) => t === tiles[0]).length;
      expect(perRow >= 2, `at least two tiles a row at ${width} (got ${perRow})`);
      const status = await page.getByText(/Page 1 of/).boundingBox();
      expect(status.height < 24, `"Page 1 of n" on one line at ${width} (height ${status.height})`);
      const blank = await page.locator('.media-tile').evaluateAll((els) => els.filter((e) => !e.querySelector('img, .media-placeholder')).length);
      expect(blank === 0, `no blank tiles (${blank})`);
      await shot(`w${width}-media`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  await run.step('toasts: at most three, covering no primary control', async () => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: HEIGHTS[width] });
      await page.goto(`${tenant}/dashboard/tags`);
      await page.getByText(facts.tag).first().waitFor();
      for (let i = 0; i < 5; i += 1) {
        await page.getByRole('button', { name: `Actions for ${facts.tag}` }).click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
        await page.waitForTimeout(150);
      }
      await page.locator('[data-sonner-toast]').first().waitFor();
      await page.waitForTimeout(500);
      const seen = await page.evaluate(() => {
        const toasts = [...document.querySelectorAll('[data-sonner-toast]')].filter((t) => t.getAttribute('data-visible') !== 'false');
        const rects = toasts.map((t) => t.getBoundingClientRect());
        const controls = [...document.querySelectorAll('.btn-primary, .form-actions button, .pager button, .topbar-menu, .cell-actions button')]
          .filter((c) => c.getBoundingClientRect().width > 0);
        const covered = controls
          .filter((c) => {
            const r = c.getBoundingClientRect();
            return rects.some((t) => t.left < r.right && t.right > r.left && t.top < r.bottom && t.bottom > r.top);
          })
          .map((c) => c.getAttribute('aria-label') || c.textContent.trim());
        return { count: toasts.length, covered };
      });
      expect(seen.count <= 3, `at most 3 toasts at ${width} (saw ${seen.count})`);
      expect(seen.covered.length === 0, `toasts cover ${seen.covered.join(', ')} at ${width}`);
      await shot(`w${width}-toasts`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  await run.step('keyboard: skip link, search combobox, filter popover, row menu, dialog focus', async () => {
    await page.goto(`${tenant}/dashboard/posts?status=all`);
    await page.getByText(facts.postTitle).first().waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((el) => el === document.activeElement), 'the first Tab reaches the skip link');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id === 'main'), 'the skip link moves focus to the main content');

    const box = page.getByRole('combobox', { name: 'Search' }).locator('visible=true').first();
    await box.focus();
    await page.keyboard.type(facts.sub);
    await page.getByRole('listbox', { name: 'Search results' }).locator('visible=true').getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(!!activeId, 'ArrowDown highlights the first result');
    expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected') === 'true', 'the highlighted option is selected');
    await shot('keyboard-search');
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'Search results' }).locator('visible=true').waitFor({ state: 'detached' }).catch(() => {});
    expect((await page.getByRole('listbox', { name: 'Search results' }).locator('visible=true').count()) === 0, 'Escape closes the results');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/posts\/edit\//);

    await page.goto(`${tenant}/dashboard`);
    const filters = page.getByRole('button', { name: 'Search filters' }).locator('visible=true').first();
    await filters.focus();
    await page.keyboard.press('Enter');
    const popover = page.getByRole('dialog', { name: 'Search Filters' });
    await popover.waitFor();
    expect(await popover.evaluate((el) => el.contains(document.activeElement)), 'the filter popover takes focus');
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await filters.evaluate((el) => el === document.activeElement), 'Escape gives focus back to the filter button');

    await page.goto(`${tenant}/dashboard/tags`);
    const trigger = page.getByRole('button', { name: `Actions for ${facts.tag}` });
    await trigger.focus();
    await page.keyboard.press('ArrowDown');
    const items = page.getByRole('menuitem');
    await items.first().waitFor();
    expect(await items.first().evaluate((el) => el === document.activeElement), 'ArrowDown opens the menu on its first item');
    await page.keyboard.press('ArrowDown');
    expect(await items.nth(1).evaluate((el) => el === document.activeElement), 'ArrowDown moves to the next item');
    await page.keyboard.press('Escape');
    expect(await trigger.evaluate((el) => el === document.activeElement), 'Escape closes the menu and focus returns');

    await page.goto(`${tenant}/dashboard/categories`);
    const del = page.getByRole('button', { name: `Delete ${facts.category}` });
    await del.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete category' });
    await dialog.waitFor();
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), 'Tab stays inside the dialog');
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await del.evaluate((el) => el === document.activeElement), 'closing the dialog gives focus back to its button');
  });

  await run.step(`JavaScript transferred: sign-in page at most ${kb(BUDGET.signIn)}, editor at most ${kb(BUDGET.editor)}`, async () => {
    const times = [];
    let signIn = 0;
    let state;
    for (let i = 0; i < 3; i += 1) {
      const r = await signInToStats(browser, tenant, admin);
      times.push(Math.round(r.ms));
      signIn = r.loginJs;
      state = r.storageState;
    }
    const editor = await editorColdJs(browser, tenant, state);
    console.log(`    sign-in page ${kb(signIn)} JS, editor ${kb(editor)} JS, Sign In to stat cards ${times.join(' / ')} ms`);
    expect(signIn <= BUDGET.signIn, `sign-in page sends ${kb(signIn)} of JavaScript`);
    expect(editor <= BUDGET.editor, `the editor sends ${kb(editor)} of JavaScript`);
  });
}

// Measurements shared by the browser flows (which assert the byte budgets) and by
// `make bench-dashboard` (which prints them): JavaScript bytes transferred on a cold load, and the
// time from the Sign In click to the stat cards on the dashboard home.

/** Counts the bytes of JavaScript a page receives (compressed body + headers, as on the wire). */
export function countScripts(page) {
  const seen = [];
  page.on('requestfinished', (req) => {
    if (req.resourceType() !== 'script') return;
    seen.push(
      req.sizes().then(
        (s) => ({ url: req.url(), bytes: s.responseBodySize + s.responseHeadersSize, encoding: null }),
        () => ({ url: req.url(), bytes: 0 }),
      ),
    );
  });
  return {
    async total() {
      const all = await Promise.all(seen);
      return { bytes: all.reduce((n, r) => n + r.bytes, 0), files: all };
    },
    reset() {
      seen.length = 0;
    },
  };
}

export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/**
 * Sign in on `tenant` in a fresh context (cold cache) and measure:
 * - loginJs: JavaScript transferred to show the sign-in page;
 * - ms: from the Sign In click to the first frame with the stat cards.
 */
export async function signInToStats(browser, tenant, { email, password, viewport = { width: 1280, height: 800 } }) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    const scripts = countScripts(page);
    await page.goto(`${tenant}/login`, { waitUntil: 'networkidle' });
    // The sign-in page as loaded; the next screen's code is fetched once the form is in use.
    const loginJs = (await scripts.total()).bytes;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.evaluate(() => {
      window.__statsShown = new Promise((resolve) => {
        document.addEventListener('click', () => (window.__clicked = performance.now()), { capture: true, once: true });
        const check = () => {
          if (document.querySelector('.stat-card .stat-value')) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now()));
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { childList: true, subtree: true });
      });
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    const shown = await page.evaluate(() => window.__statsShown);
    const clicked = await page.evaluate(() => window.__clicked);
    return { loginJs, ms: shown - clicked, storageState: await context.storageState() };
  } finally {
    await context.close();
  }
}

/** JavaScript transferred when an already signed-in user opens the post editor cold. */
export async function editorColdJs(browser, tenant, storageState, { viewport = { width: 1280, height: 800 } } = {}) {
  // A signed-in session (localStorage of a context that signed in) and an empty HTTP cache.
  const context = await browser.newContext({ viewport, storageState });
  try {
    const page = await context.newPage();
    const scripts = countScripts(page);
    await page.goto(`${tenant}/dashboard/posts/new`, { waitUntil: 'networkidle' });
    await page.locator('.ck-editor__editable').waitFor();
    return (await scripts.total()).bytes;
  } finally {
    await context.close();
  }
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Settings -> Webhooks against the real backend and its Celery worker: add an endpoint that
// points at a receiver started here (on 127.0.0.1: the e2e server runs with
// WEBHOOK_ALLOW_PRIVATE_NETWORKS=1), see its secret once, send a test event, see it delivered
// in the log (signature checked with the secret), redeliver it (same Webhook-Id), at phone and
// desktop width, axe-clean.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { axeViolations, layoutProblems } from './flowScreens.mjs';
import { expect } from './harness.mjs';

/** An HTTP receiver on 127.0.0.1 that answers 200 and keeps what it got. */
function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('received by the e2e receiver');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/hooks/cms`, received, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

async function waitFor(predicate, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The documented check: v1= hex HMAC-SHA256 of `{timestamp}.{body}` with the secret. */
function signatureValid(secret, { headers, body }) {
  const expected = createHmac('sha256', secret).update(`${headers['webhook-timestamp']}.`).update(body).digest('hex');
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((sig) => sig.length === expected.length + 3 && timingSafeEqual(Buffer.from(sig), Buffer.from(`v1=${expected}`)));
}

export async function webhooksFlow({ run, page, tenant, shot }) {
  const receiver = await startReceiver();
  let secret = '';
  const checkScreen = async (name) => {
    // The screen as it stays: toasts (checked by the toasts step of flowScreens) gone first.
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
    const problems = [...(await layoutProblems(page)), ...(await axeViolations(page)).map((v) => `axe ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`)];
    expect(problems.length === 0, `${name}: ${problems.join('; ')}`);
  };
  try {
    await run.step('Settings -> Webhooks: the empty list', async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${tenant}/dashboard/settings`);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await page.getByText(/No webhook endpoints yet/).waitFor();
      await checkScreen('webhooks empty');
      await shot('30-webhooks-empty');
    });

    await run.step('add an endpoint (grouped events); the secret is shown once', async () => {
      await page.getByRole('button', { name: 'Add endpoint' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
      await dialog.getByLabel('Endpoint URL').fill(receiver.url);
      await dialog.getByLabel('Description').fill('The e2e receiver');
      await dialog.getByRole('checkbox', { name: 'All posts events' }).check();
      await checkScreen('add endpoint dialog');
      await shot('31-webhook-add');
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      const shown = page.getByRole('dialog', { name: 'Signing secret' });
      await shown.getByText("you won't see it again").waitFor();
      secret = await shown.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(secret.length >= 20, `a secret is shown (${secret.length} characters)`);
      await checkScreen('secret dialog');
      await shot('32-webhook-secret');
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      await page.getByRole('link', { name: receiver.url }).waitFor();
      await page.getByText('Active', { exact: true }).waitFor();
      await shot('33-webhooks-list');
    });

    await run.step('send a test event: the receiver gets it signed; the log shows it delivered', async () => {
      await page.getByRole('button', { name: `Actions for ${receiver.url}` }).click();
      await page.getByRole('menuitem', { name: 'Send test event' }).click();
      await page.getByText('Test event queued. See the delivery log.').waitFor();
      await waitFor(() => receiver.received.length >= 1, 'the test event at the receiver');
      const [got] = receiver.received;
      expect(JSON.parse(got.body.toString()).event === 'webhook.test', 'a webhook.test event');
      expect(signatureValid(secret, got), 'the signature verifies with the secret shown once');
      await page.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
      await waitFor(async () => {
        if (await page.getByText('succeeded', { exact: true }).count()) return true;
        await page.getByRole('button', { name: 'Refresh' }).click();
        return false;
      }, 'the delivery logged as succeeded');
      await page.getByText('received by the e2e receiver').waitFor();
      await checkScreen('delivery log');
      await shot('34-webhook-log');
    });

    await run.step('redeliver: the same Webhook-Id again, a second row in the log', async () => {
      await page.getByRole('button', { name: /^Redeliver webhook\.test/ }).first().click();
      await page.getByText('Delivery queued again').waitFor();
      await waitFor(() => receiver.received.length >= 2, 'the redelivery at the receiver');
      const [first, again] = receiver.received;
      expect(first.headers['webhook-id'] === again.headers['webhook-id'], 'the redelivery keeps the Webhook-Id');
      expect(signatureValid(secret, again), 'the redelivery is signed');
      await waitFor(async () => {
        if ((await page.getByText('succeeded', { exact: true }).count()) >= 2) return true;
        await page.getByRole('button', { name: 'Refresh' }).click();
        return false;
      }, 'two succeeded deliveries in the log');
    });

    await run.step('phone width (360 px): log and list usable, keyboard reaches the actions', async () => {
      await page.setViewportSize({ width: 360, height: 780 });
      await page.waitForTimeout(300);
      await checkScreen('delivery log @360');
      await shot('35-webhook-log-phone');
      await page.getByRole('link', { name: 'Back to webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await checkScreen('webhooks @360');
      await shot('36-webhooks-phone');
      // keyboard: the row's menu opens from the keyboard
      await page.getByRole('button', { name: `Actions for ${receiver.url}` }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1366, height: 900 });
    });
  } finally {
    await receiver.close();
  }
}

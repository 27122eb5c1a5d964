import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** MSW server shared by every test; each test adds the handlers it needs with server.use(). The
 *  defaults: no webhook endpoints (the dashboard home asks, for an admin's banner), and the
 *  company's email is verified (no banner), unless a test says otherwise. */
export const server = setupServer(
  http.get('*/api/webhooks', () => HttpResponse.json({ success: true, endpoints: [], events: [] })),
  http.get('*/api/client/verification', () =>
    HttpResponse.json({ success: true, verified: true, email: 'admin@x.test', sentAt: null }),
  ),
);

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** MSW server shared by every test; each test adds the handlers it needs with server.use().
 * The one default: no webhook endpoints (the dashboard home asks, for an admin's banner). */
export const server = setupServer(
  http.get('*/api/webhooks', () => HttpResponse.json({ success: true, endpoints: [], events: [] })),
);

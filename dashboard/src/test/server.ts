import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** MSW server shared by every test; each test adds the handlers it needs with server.use(). The
 *  one default: the company's email is verified (no banner), unless a test says otherwise. */
export const server = setupServer(
  http.get('*/api/client/verification', () =>
    HttpResponse.json({ success: true, verified: true, email: 'admin@x.test', sentAt: null }),
  ),
);

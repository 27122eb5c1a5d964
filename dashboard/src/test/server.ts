import { setupServer } from 'msw/node';

/** MSW server shared by every test; each test adds the handlers it needs with server.use(). */
export const server = setupServer();

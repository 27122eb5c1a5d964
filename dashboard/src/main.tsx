import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { buildRoutes } from './app/router';
import { makeStore } from './app/store';
import { readConfig } from './lib/config';
import './styles.css';

const config = readConfig();
const store = makeStore();
const router = createBrowserRouter(buildRoutes(config));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders store={store} config={config}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

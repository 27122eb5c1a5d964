import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { buildRoutes, preloadAfterSignIn } from './app/router';
import { makeStore } from './app/store';
import { readConfig } from './lib/config';
import './styles.css';

const config = readConfig();
const store = makeStore();
// The dashboard home's requests start with the navigation, not after its code has rendered.
const prefetchDashboard = () => {
  if (!store.getState().session.token) return;
  void import('./api/stats').then(({ statsApi }) => {
    void store.dispatch(statsApi.util.prefetch('getDashboardStats', undefined, {}));
    void store.dispatch(statsApi.util.prefetch('getPageViews', undefined, {}));
  });
};
const router = createBrowserRouter(buildRoutes(config, prefetchDashboard));

// While someone fills in the sign-in form, fetch the code of the screen that follows it.
const warmUp = () => {
  if (window.location.pathname !== '/login' || !config.tenant) return;
  document.removeEventListener('focusin', warmUp);
  preloadAfterSignIn();
};
document.addEventListener('focusin', warmUp);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders store={store} config={config}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

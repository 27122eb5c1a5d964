import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Toaster } from 'sonner';
import type { CmsConfig } from '@/lib/config';
import { CmsConfigProvider } from '@/lib/configContext';
import type { AppStore } from './store';
import { SessionWatcher } from './SessionWatcher';

export function AppProviders({ store, config, children }: { store: AppStore; config: CmsConfig; children: ReactNode }) {
  return (
    <Provider store={store}>
      <CmsConfigProvider value={config}>
        <SessionWatcher />
        {children}
        <Toaster position="bottom-right" richColors closeButton />
      </CmsConfigProvider>
    </Provider>
  );
}

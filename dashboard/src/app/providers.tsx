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
        {/* At most three at once; bottom left on wide screens (the sticky save bar and dialog
            buttons sit at the right), above the bottom edge on phones (clear of the save bar). */}
        <Toaster
          position="bottom-left"
          visibleToasts={3}
          richColors
          closeButton
          mobileOffset={{ bottom: 84, left: 12, right: 12 }}
        />
      </CmsConfigProvider>
    </Provider>
  );
}

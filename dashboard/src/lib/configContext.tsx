import { createContext, useContext, type ReactNode } from 'react';
import type { CmsConfig } from './config';

const ConfigContext = createContext<CmsConfig>({ rootDomain: 'localhost', tenant: null, tenantFound: true });

export function CmsConfigProvider({ value, children }: { value: CmsConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={value}>{children}</ConfigContext.Provider>;
}

export function useCmsConfig(): CmsConfig {
  return useContext(ConfigContext);
}

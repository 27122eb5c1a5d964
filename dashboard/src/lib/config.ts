export interface CmsConfig {
  /** Root domain without port, e.g. "localhost" or "example.com". */
  rootDomain: string;
  /** Tenant subdomain of the current host, or null on the root domain. */
  tenant: string | null;
  /** False when the host names a tenant that does not exist. */
  tenantFound: boolean;
  /** The company's name on its own host (shown on its sign-in page). */
  companyName?: string | null;
}

declare global {
  interface Window {
    __CMS__?: Partial<CmsConfig>;
  }
}

/** Derive the tenant from a hostname and the root domain (used when the server injects nothing). */
export function tenantFromHost(hostname: string, rootDomain: string): string | null {
  const host = hostname.toLowerCase();
  const root = rootDomain.toLowerCase();
  if (host === root) return null;
  const suffix = `.${root}`;
  if (host.endsWith(suffix)) return host.slice(0, -suffix.length) || null;
  return null;
}

export function readConfig(win: Window = window): CmsConfig {
  const injected = win.__CMS__;
  const envRoot = (import.meta.env.VITE_ROOT_DOMAIN as string | undefined) || 'localhost';
  if (injected && typeof injected === 'object') {
    const rootDomain = injected.rootDomain || envRoot;
    return {
      rootDomain,
      tenant: injected.tenant ?? null,
      tenantFound: injected.tenantFound ?? true,
      companyName: injected.companyName ?? null,
    };
  }
  return {
    rootDomain: envRoot,
    tenant: tenantFromHost(win.location.hostname, envRoot),
    tenantFound: true,
  };
}

/** Absolute URL of a tenant's sign-in page, keeping this page's protocol and port. */
export function tenantLoginUrl(subdomain: string, rootDomain: string, loc: Location = window.location): string {
  const port = loc.port ? `:${loc.port}` : '';
  return `${loc.protocol}//${subdomain}.${rootDomain}${port}/login`;
}

import { describe, expect, it } from 'vitest';
import { loadStoredSession, loggedIn, sessionSlice, storeSession, STORAGE_KEYS } from '../session';
import { readConfig, tenantFromHost, tenantLoginUrl } from '../config';

const user = { userId: 'u1', username: 'bob', role: 'editor' as const };

describe('session storage', () => {
  it('login computes the expiry from expiresIn seconds', () => {
    const state = sessionSlice.reducer(undefined, loggedIn({ token: 't', expiresIn: 3600, user }, 1_000));
    expect(state.expiresAt).toBe(1_000 + 3_600_000);
    expect(state.user).toEqual(user);
  });

  it('restores a stored session that has not expired', () => {
    storeSession({ token: 't', expiresAt: Date.now() + 10_000, user });
    expect(loadStoredSession().token).toBe('t');
    expect(loadStoredSession().user).toEqual(user);
  });

  it('clears a stored session that has expired', () => {
    storeSession({ token: 't', expiresAt: Date.now() - 1, user });
    expect(loadStoredSession().token).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });
});

describe('host config', () => {
  it('derives the tenant from the host name', () => {
    expect(tenantFromHost('demo.localhost', 'localhost')).toBe('demo');
    expect(tenantFromHost('localhost', 'localhost')).toBeNull();
    expect(tenantFromHost('acme.cms.example.com', 'cms.example.com')).toBe('acme');
    expect(tenantFromHost('other.org', 'cms.example.com')).toBeNull();
  });

  it('prefers the configuration injected by the server', () => {
    const win = {
      __CMS__: { rootDomain: 'example.com', tenant: 'acme', tenantFound: false, companyName: 'Acme Inc' },
      location: { hostname: 'x' },
    };
    expect(readConfig(win as unknown as Window)).toEqual({
      rootDomain: 'example.com',
      tenant: 'acme',
      tenantFound: false,
      companyName: 'Acme Inc',
    });
  });

  it('builds the tenant sign-in URL with the current protocol and port', () => {
    expect(tenantLoginUrl('acme', 'localhost', { protocol: 'http:', port: '8000' } as Location)).toBe(
      'http://acme.localhost:8000/login',
    );
    expect(tenantLoginUrl('acme', 'example.com', { protocol: 'https:', port: '' } as Location)).toBe(
      'https://acme.example.com/login',
    );
  });
});

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type Role = 'admin' | 'editor' | 'author' | 'viewer';

export interface SessionUser {
  userId: string;
  username: string;
  role: Role;
}

export interface SessionState {
  token: string | null;
  /** Epoch milliseconds after which the token is no longer valid. */
  expiresAt: number | null;
  user: SessionUser | null;
}

export const STORAGE_KEYS = { token: 'token', expiry: 'tokenExpiry', user: 'user' } as const;

const empty: SessionState = { token: null, expiresAt: null, user: null };

export function clearStoredSession(storage: Storage = localStorage): void {
  storage.removeItem(STORAGE_KEYS.token);
  storage.removeItem(STORAGE_KEYS.expiry);
  storage.removeItem(STORAGE_KEYS.user);
}

export function storeSession(state: SessionState, storage: Storage = localStorage): void {
  if (!state.token || !state.expiresAt || !state.user) {
    clearStoredSession(storage);
    return;
  }
  storage.setItem(STORAGE_KEYS.token, state.token);
  storage.setItem(STORAGE_KEYS.expiry, String(state.expiresAt));
  storage.setItem(STORAGE_KEYS.user, JSON.stringify(state.user));
}

/** The stored session when present and not expired; an expired one is cleared. */
export function loadStoredSession(now: number = Date.now(), storage: Storage = localStorage): SessionState {
  try {
    const token = storage.getItem(STORAGE_KEYS.token);
    const expiresAt = Number(storage.getItem(STORAGE_KEYS.expiry));
    const user = JSON.parse(storage.getItem(STORAGE_KEYS.user) ?? 'null') as SessionUser | null;
    if (!token || !expiresAt || !user || expiresAt <= now) {
      clearStoredSession(storage);
      return empty;
    }
    return { token, expiresAt, user };
  } catch {
    clearStoredSession(storage);
    return empty;
  }
}

export function isExpired(state: SessionState, now: number = Date.now()): boolean {
  return !!state.token && (!state.expiresAt || state.expiresAt <= now);
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: empty,
  reducers: {
    loggedIn: {
      reducer(_state, action: PayloadAction<SessionState>) {
        return action.payload;
      },
      prepare(payload: { token: string; expiresIn: number; user: SessionUser }, now: number = Date.now()) {
        return {
          payload: { token: payload.token, expiresAt: now + payload.expiresIn * 1000, user: payload.user },
        };
      },
    },
    loggedOut() {
      return empty;
    },
    /** The signed-in user's own record changed (e.g. their username). */
    userChanged(state, action: PayloadAction<Partial<SessionUser>>) {
      if (state.user) state.user = { ...state.user, ...action.payload };
    },
  },
  selectors: {
    selectToken: (s) => s.token,
    selectUser: (s) => s.user,
    selectIsAuthenticated: (s) => !!s.token && !!s.expiresAt && s.expiresAt > Date.now(),
  },
});

export const { loggedIn, loggedOut, userChanged } = sessionSlice.actions;
export const { selectToken, selectUser, selectIsAuthenticated } = sessionSlice.selectors;

/** The user carried in a JWT payload (used when the login reply has no user object). */
export function userFromToken(token: string): SessionUser | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const payload = JSON.parse(json) as Partial<SessionUser>;
    if (!payload.userId || !payload.username || !payload.role) return null;
    return { userId: String(payload.userId), username: payload.username, role: payload.role };
  } catch {
    return null;
  }
}

import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '@/lib/api';
import { loadStoredSession, loggedOut, sessionSlice, storeSession, type SessionState } from '@/lib/session';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [sessionSlice.reducerPath]: sessionSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedSession: SessionState = loadStoredSession()) {
  // Signing out (by hand or on expiry) drops every cached reply of the previous user.
  const listener = createListenerMiddleware();
  listener.startListening({
    actionCreator: loggedOut,
    effect: (_action, listenerApi) => {
      listenerApi.dispatch(api.util.resetApiState());
    },
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { session: preloadedSession },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
  });
  // Keep local storage in step with the session slice.
  let last = store.getState().session;
  store.subscribe(() => {
    const current = store.getState().session;
    if (current !== last) {
      last = current;
      storeSession(current);
    }
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

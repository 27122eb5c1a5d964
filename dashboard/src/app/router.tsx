import { createElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Layout } from '@/components/Layout';
import { LoadingState } from '@/components/LoadingState';
import { NotFound } from '@/components/NotFound';
import type { CmsConfig } from '@/lib/config';
import { WebhooksDisabledBanner } from '@/features/webhooks/components/DisabledBanner';
import { RequireAuth, TwoFactorSetupGate } from './guards';

type Screen = ComponentType & { preload: () => Promise<unknown> };

/**
 * A route component loaded on first use (each screen is its own chunk). Its route's loader
 * fetches the chunk before the navigation commits (`preload`), so a screen renders at once
 * instead of suspending behind a fallback (React holds a revealed fallback for 300 ms).
 */
function lazyNamed<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T): Screen {
  let loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const preload = () => (pending ??= load().then((m) => (loaded = m[name] as ComponentType)));
  const Lazy = lazy(async () => ({ default: await preload() }));
  const Screen = ((props: object) => createElement(loaded ?? Lazy, props)) as Screen;
  Screen.preload = preload;
  return Screen;
}

/** Requests of the dashboard home started with its chunk (the store's session is set by then). */
export type DashboardPrefetch = () => void;

/** The dashboard home's code, fetched while the user types on the sign-in form. */
export function preloadAfterSignIn() {
  void DashboardHome.preload();
}

const TenantLogin = lazyNamed(() => import('@/features/auth/routes/TenantLogin'), 'TenantLogin');
const RootLogin = lazyNamed(() => import('@/features/auth/routes/RootLogin'), 'RootLogin');
const RegisterOnRootDomain = lazyNamed(() => import('@/features/auth/routes/RootLogin'), 'RegisterOnRootDomain');
const ForgotPassword = lazyNamed(() => import('@/features/auth/routes/ForgotPassword'), 'ForgotPassword');
const ResetPassword = lazyNamed(() => import('@/features/auth/routes/ResetPassword'), 'ResetPassword');
const AcceptInvite = lazyNamed(() => import('@/features/auth/routes/AcceptInvite'), 'AcceptInvite');
const VerifyEmail = lazyNamed(() => import('@/features/auth/routes/VerifyEmail'), 'VerifyEmail');
const SupportSession = lazyNamed(() => import('@/features/auth/routes/SupportSession'), 'SupportSession');
const Register = lazyNamed(() => import('@/features/auth/routes/Register'), 'Register');
const DashboardHome = lazyNamed(() => import('@/features/dashboard/routes/DashboardHome'), 'DashboardHome');
const PostsList = lazyNamed(() => import('@/features/posts/routes/PostsList'), 'PostsList');
const PostDetail = lazyNamed(() => import('@/features/posts/routes/PostDetail'), 'PostDetail');
const PostCreate = lazyNamed(() => import('@/features/posts/routes/PostCreate'), 'PostCreate');
const PostEdit = lazyNamed(() => import('@/features/posts/routes/PostEdit'), 'PostEdit');
const PostHistory = lazyNamed(() => import('@/features/posts/routes/PostHistory'), 'PostHistory');
const PagesList = lazyNamed(() => import('@/features/posts/routes/Pages'), 'PagesList');
const PageCreate = lazyNamed(() => import('@/features/posts/routes/Pages'), 'PageCreate');
const PageEdit = lazyNamed(() => import('@/features/posts/routes/Pages'), 'PageEdit');
const PageHistory = lazyNamed(() => import('@/features/posts/routes/Pages'), 'PageHistory');
const CategoriesList = lazyNamed(() => import('@/features/terms/routes/TermLists'), 'CategoriesList');
const CategoryCreate = lazyNamed(() => import('@/features/terms/routes/TermForms'), 'CategoryCreate');
const CategoryEdit = lazyNamed(() => import('@/features/terms/routes/TermForms'), 'CategoryEdit');
const TagsList = lazyNamed(() => import('@/features/terms/routes/TermLists'), 'TagsList');
const TagCreate = lazyNamed(() => import('@/features/terms/routes/TermForms'), 'TagCreate');
const TagEdit = lazyNamed(() => import('@/features/terms/routes/TermForms'), 'TagEdit');
const UsersList = lazyNamed(() => import('@/features/users/routes/UsersList'), 'UsersList');
const UserCreate = lazyNamed(() => import('@/features/users/routes/UserCreate'), 'UserCreate');
const UserEdit = lazyNamed(() => import('@/features/users/routes/UserEdit'), 'UserEdit');
const MyAccount = lazyNamed(() => import('@/features/users/routes/MyAccount'), 'MyAccount');
const AiGenerator = lazyNamed(() => import('@/features/ai-generator/routes/AiGenerator'), 'AiGenerator');
const Settings = lazyNamed(() => import('@/features/settings/routes/Settings'), 'Settings');
const SiteSettings = lazyNamed(() => import('@/features/settings/routes/SiteSettings'), 'SiteSettings');
const Webhooks = lazyNamed(() => import('@/features/webhooks/routes/Webhooks'), 'Webhooks');
const WebhookDeliveries = lazyNamed(() => import('@/features/webhooks/routes/WebhookDeliveries'), 'WebhookDeliveries');
const Integrations = lazyNamed(() => import('@/features/integrations/routes/Integrations'), 'Integrations');
const Newsletters = lazyNamed(() => import('@/features/newsletters/routes/Newsletters'), 'Newsletters');
const SendReport = lazyNamed(() => import('@/features/newsletters/routes/SendReport'), 'SendReport');
const MembersList = lazyNamed(() => import('@/features/members/routes/MembersList'), 'MembersList');
const MemberCreate = lazyNamed(() => import('@/features/members/routes/MemberForms'), 'MemberCreate');
const MemberEdit = lazyNamed(() => import('@/features/members/routes/MemberForms'), 'MemberEdit');
const MembersImport = lazyNamed(() => import('@/features/members/routes/MembersImport'), 'MembersImport');
const Activity = lazyNamed(() => import('@/features/audit/routes/Activity'), 'Activity');
const ImportExport = lazyNamed(() => import('@/features/portability/routes/ImportExport'), 'ImportExport');
const MediaLibrary = lazyNamed(() => import('@/features/media/routes/MediaLibrary'), 'MediaLibrary');

const page = (node: ReactNode) => <Suspense fallback={<LoadingState />}>{node}</Suspense>;

/** A route for a screen: its chunk is loaded by the route's loader, then it renders. */
function screen(path: string | undefined, Component: Screen, extra?: () => void): RouteObject {
  return {
    ...(path === undefined ? { index: true } : { path }),
    element: page(<Component />),
    loader: async () => {
      extra?.();
      await Component.preload().catch(() => undefined); // a failed chunk is retried by React.lazy
      return null;
    },
  };
}

export function buildRoutes(config: CmsConfig, prefetchDashboard?: DashboardPrefetch): RouteObject[] {
  // A host that names no registered company: every path is the 404 page.
  if (!config.tenantFound) {
    return [{ path: '*', element: <NotFound /> }];
  }
  const onTenant = !!config.tenant;
  const hydrate = { hydrateFallbackElement: <LoadingState /> };
  return [
    { path: '/', element: <Navigate to="/login" replace /> },
    { ...screen('/login', onTenant ? TenantLogin : RootLogin), ...hydrate },
    { ...screen('/register', onTenant ? RegisterOnRootDomain : Register), ...hydrate },
    // Password reset and invitations exist on a company's host only (accounts belong to a company).
    ...(onTenant
      ? [
          { ...screen('/forgot-password', ForgotPassword), ...hydrate },
          { ...screen('/reset-password', ResetPassword), ...hydrate },
          { ...screen('/accept-invite', AcceptInvite), ...hydrate },
          { ...screen('/verify-email', VerifyEmail), ...hydrate },
          { ...screen('/support-session', SupportSession), ...hydrate },
        ]
      : []),
    {
      path: '/dashboard',
      ...hydrate,
      element: (
        <RequireAuth>
          <TwoFactorSetupGate>
            <Layout banner={<WebhooksDisabledBanner />} />
          </TwoFactorSetupGate>
        </RequireAuth>
      ),
      children: [
        screen(undefined, DashboardHome, prefetchDashboard),
        screen('posts', PostsList),
        screen('posts/new', PostCreate),
        screen('posts/edit/:id', PostEdit),
        screen('posts/edit/:id/history', PostHistory),
        screen('posts/:slug', PostDetail),
        screen('pages', PagesList),
        screen('pages/new', PageCreate),
        screen('pages/:id', PageEdit),
        screen('pages/:id/history', PageHistory),
        screen('categories', CategoriesList),
        screen('categories/new', CategoryCreate),
        screen('categories/edit/:id', CategoryEdit),
        screen('tags', TagsList),
        screen('tags/new', TagCreate),
        screen('tags/edit/:id', TagEdit),
        screen('media', MediaLibrary),
        screen('members', MembersList),
        screen('members/new', MemberCreate),
        screen('members/import', MembersImport),
        screen('members/:id', MemberEdit),
        screen('ai-generator', AiGenerator),
        screen('users', UsersList),
        screen('users/new', UserCreate),
        screen('users/edit/:userId', UserEdit),
        screen('account', MyAccount),
        screen('activity', Activity),
        screen('settings', Settings),
        screen('settings/site', SiteSettings),
        screen('settings/webhooks', Webhooks),
        screen('settings/webhooks/:id', WebhookDeliveries),
        screen('settings/integrations', Integrations),
        screen('settings/newsletters', Newsletters),
        screen('settings/newsletters/sends/:id', SendReport),
        screen('import-export', ImportExport),
        { path: '*', element: <NotFound /> },
      ],
    },
    { path: '*', element: <NotFound /> },
  ];
}

import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Layout } from '@/components/Layout';
import { NotFound } from '@/components/NotFound';
import { LoadingState } from '@/components/ui';
import type { CmsConfig } from '@/lib/config';
import { RequireAuth } from './guards';

/** A route component loaded on first use (each screen is its own chunk). */
function lazyNamed<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const TenantLogin = lazyNamed(() => import('@/features/auth/routes/TenantLogin'), 'TenantLogin');
const RootLogin = lazyNamed(() => import('@/features/auth/routes/RootLogin'), 'RootLogin');
const RegisterOnRootDomain = lazyNamed(() => import('@/features/auth/routes/RootLogin'), 'RegisterOnRootDomain');
const Register = lazyNamed(() => import('@/features/auth/routes/Register'), 'Register');
const DashboardHome = lazyNamed(() => import('@/features/dashboard/routes/DashboardHome'), 'DashboardHome');
const PostsList = lazyNamed(() => import('@/features/posts/routes/PostsList'), 'PostsList');
const PostDetail = lazyNamed(() => import('@/features/posts/routes/PostDetail'), 'PostDetail');
const PostCreate = lazyNamed(() => import('@/features/posts/routes/PostCreate'), 'PostCreate');
const PostEdit = lazyNamed(() => import('@/features/posts/routes/PostEdit'), 'PostEdit');
const CategoriesList = lazyNamed(() => import('@/features/categories/routes/CategoriesList'), 'CategoriesList');
const CategoryCreate = lazyNamed(() => import('@/features/categories/routes/CategoryForm'), 'CategoryCreate');
const CategoryEdit = lazyNamed(() => import('@/features/categories/routes/CategoryForm'), 'CategoryEdit');
const TagsList = lazyNamed(() => import('@/features/tags/routes/TagsList'), 'TagsList');
const TagCreate = lazyNamed(() => import('@/features/tags/routes/TagForm'), 'TagCreate');
const TagEdit = lazyNamed(() => import('@/features/tags/routes/TagForm'), 'TagEdit');
const UsersList = lazyNamed(() => import('@/features/users/routes/UsersList'), 'UsersList');
const UserCreate = lazyNamed(() => import('@/features/users/routes/UserForms'), 'UserCreate');
const UserEdit = lazyNamed(() => import('@/features/users/routes/UserForms'), 'UserEdit');
const AiGenerator = lazyNamed(() => import('@/features/ai-generator/routes/AiGenerator'), 'AiGenerator');
const Settings = lazyNamed(() => import('@/features/settings/routes/Settings'), 'Settings');
const MediaLibrary = lazyNamed(() => import('@/features/media/routes/MediaLibrary'), 'MediaLibrary');

const page = (node: ReactNode) => <Suspense fallback={<LoadingState />}>{node}</Suspense>;

export function buildRoutes(config: CmsConfig): RouteObject[] {
  // A host that names no registered company: every path is the 404 page.
  if (!config.tenantFound) {
    return [{ path: '*', element: <NotFound /> }];
  }
  const onTenant = !!config.tenant;
  return [
    { path: '/', element: <Navigate to="/login" replace /> },
    { path: '/login', element: page(onTenant ? <TenantLogin /> : <RootLogin />) },
    { path: '/register', element: page(onTenant ? <RegisterOnRootDomain /> : <Register />) },
    {
      path: '/dashboard',
      element: (
        <RequireAuth>
          <Layout />
        </RequireAuth>
      ),
      children: [
        { index: true, element: page(<DashboardHome />) },
        { path: 'posts', element: page(<PostsList />) },
        { path: 'posts/new', element: page(<PostCreate />) },
        { path: 'posts/edit/:id', element: page(<PostEdit />) },
        { path: 'posts/:slug', element: page(<PostDetail />) },
        { path: 'categories', element: page(<CategoriesList />) },
        { path: 'categories/new', element: page(<CategoryCreate />) },
        { path: 'categories/edit/:id', element: page(<CategoryEdit />) },
        { path: 'tags', element: page(<TagsList />) },
        { path: 'tags/new', element: page(<TagCreate />) },
        { path: 'tags/edit/:id', element: page(<TagEdit />) },
        { path: 'media', element: page(<MediaLibrary />) },
        { path: 'ai-generator', element: page(<AiGenerator />) },
        { path: 'users', element: page(<UsersList />) },
        { path: 'users/new', element: page(<UserCreate />) },
        { path: 'users/edit/:userId', element: page(<UserEdit />) },
        { path: 'settings', element: page(<Settings />) },
        { path: '*', element: <NotFound /> },
      ],
    },
    { path: '*', element: <NotFound /> },
  ];
}

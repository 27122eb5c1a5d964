import { createContext, useContext, type ComponentType } from 'react';
import type { ContentCollection } from '@/api/posts';

/**
 * Posts and pages are kinds of one content model with the same shapes (apps.content.kinds): the
 * same screens and editor serve both, with what differs by kind declared here, once. A screen reads
 * its kind with `useKind()`; the route map mounts the pages' screens with `withKind(PAGE, ...)`.
 */
export interface ContentKind {
  /** The API's collection (`/api/posts`, `/api/pages`). */
  api: ContentCollection;
  noun: 'post' | 'page';
  Noun: 'Post' | 'Page';
  plural: 'posts' | 'pages';
  Plural: 'Posts' | 'Pages';
  /** The list's address. */
  list: string;
  create: string;
  edit: (id: string) => string;
  /** Where a row's title leads: a post's reader's view (by slug), a page's editor. */
  view: (row: { id: string; slug: string }) => string;
  history: (id: string) => string;
  /** The list's description under its title. */
  description: string;
  /** A post needs a category; a page has none to choose. */
  categories: boolean;
  /** The header's search box searches posts (the dashboard's search has no pages): a page list
   *  has a search field of its own. */
  headerSearch: boolean;
  /** "Translate with AI" (the AI translation takes posts only). */
  aiTranslation: boolean;
}

export const POST: ContentKind = {
  api: 'posts',
  noun: 'post',
  Noun: 'Post',
  plural: 'posts',
  Plural: 'Posts',
  list: '/dashboard/posts',
  create: '/dashboard/posts/new',
  edit: (id) => `/dashboard/posts/edit/${id}`,
  view: (row) => `/dashboard/posts/${row.slug}`,
  history: (id) => `/dashboard/posts/edit/${id}/history`,
  description: 'Manage your blog posts',
  categories: true,
  headerSearch: true,
  aiTranslation: true,
};

export const PAGE: ContentKind = {
  api: 'pages',
  noun: 'page',
  Noun: 'Page',
  plural: 'pages',
  Plural: 'Pages',
  list: '/dashboard/pages',
  create: '/dashboard/pages/new',
  edit: (id) => `/dashboard/pages/${id}`,
  view: (row) => `/dashboard/pages/${row.id}`,
  history: (id) => `/dashboard/pages/${id}/history`,
  description: 'The pages of your website: About, Contact and the like',
  categories: false,
  headerSearch: false,
  aiTranslation: false,
};

const KindContext = createContext<ContentKind>(POST);

/** The kind of content the screen shows (posts unless mounted for pages). */
export function useKind(): ContentKind {
  return useContext(KindContext);
}

/** A screen of the posts feature mounted for another kind. */
export function withKind(kind: ContentKind, Screen: ComponentType): ComponentType {
  function Kinded() {
    return (
      <KindContext.Provider value={kind}>
        <Screen />
      </KindContext.Provider>
    );
  }
  Kinded.displayName = `${kind.Noun}${Screen.displayName ?? Screen.name}`;
  return Kinded;
}

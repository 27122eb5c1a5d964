import type { ReactNode } from 'react';
import type { TermKind } from '@/api/terms';
import { errorCode, errorMessage } from '@/lib/errors';

/** What differs between the category screens and the tag screens (spec §8 texts included). */
export interface TermScreens {
  kind: TermKind;
  /** 'category' / 'tag', and their plurals, as the texts use them. */
  one: string;
  many: string;
  /** The list's route; `new` and `edit/{id}` are below it. */
  path: string;
  listDescription: string;
  /** Title and description of the create screen. */
  createTitle: string;
  createDescription: string;
  /** Categories have a description; tags do not. */
  withDescription: boolean;
  loadFailed: string;
  /** Also a toast when the list fails to load. */
  loadFailedToast?: string;
  /** The list's row actions: two buttons, or a menu. */
  rowActions: 'buttons' | 'menu';
  /** The confirmation's question about one term. */
  deleteQuestion: (name: ReactNode) => ReactNode;
  /** The client's refusal to delete a term that posts use. */
  inUse: (name: string, count: number) => string;
  /** The text of a delete the server refused. */
  deleteFailed: (error: unknown) => string;
  /** An edit screen whose term does not exist says so (else it goes back to the list). */
  notFoundScreen: boolean;
}

export const CATEGORY: TermScreens = {
  kind: 'category',
  one: 'category',
  many: 'categories',
  path: '/dashboard/categories',
  listDescription: 'Organise your posts into categories',
  createTitle: 'Create Category',
  createDescription: 'Add a new category for your posts',
  withDescription: true,
  loadFailed: 'Failed to load categories',
  rowActions: 'buttons',
  deleteQuestion: (name) => <>Are you sure you want to delete the category <strong>{name}</strong>? This action cannot be undone.</>,
  inUse: (name, count) =>
    `Cannot delete category "${name}". It is used in ${count} post(s). Remove the category from all posts first.`,
  deleteFailed: (error) =>
    errorCode(error) === 'category_in_use'
      ? 'Cannot delete category. It is currently being used in posts.'
      : `Failed to delete category: ${errorMessage(error)}`,
  notFoundScreen: false,
};

export const TAG: TermScreens = {
  kind: 'tag',
  one: 'tag',
  many: 'tags',
  path: '/dashboard/tags',
  listDescription: 'Label your posts with tags',
  createTitle: 'Create New Tag',
  createDescription: 'Add a tag to label your posts',
  withDescription: false,
  loadFailed: 'Failed to load tags. Please try again.',
  loadFailedToast: 'Error loading tags',
  rowActions: 'menu',
  deleteQuestion: (name) => (
    <>
      Are you sure you want to delete the tag <strong>{name}</strong>? It will be removed from all posts. This action
      cannot be undone.
    </>
  ),
  inUse: (name, count) => `Cannot delete tag "${name}". It is used in ${count} post(s). Remove the tag from all posts first.`,
  // `tag_in_use`: the server's own message.
  deleteFailed: (error) => (errorCode(error) === 'tag_in_use' ? errorMessage(error) : 'Failed to delete tag. Please try again.'),
  notFoundScreen: true,
};

import { errorCode, errorMessage } from './errors';

/** Spec §8 texts for refused category and tag deletes (client block and server replies). */
export function categoryInUseMessage(name: string, count: number): string {
  return `Cannot delete category "${name}". It is used in ${count} post(s). Remove the category from all posts first.`;
}

export function tagInUseMessage(name: string, count: number): string {
  return `Cannot delete tag "${name}". It is used in ${count} post(s). Remove the tag from all posts first.`;
}

/** The text shown when the server refuses a category delete (`category_in_use`, or anything else). */
export function categoryDeleteError(error: unknown): string {
  if (errorCode(error) === 'category_in_use') return 'Cannot delete category. It is currently being used in posts.';
  return `Failed to delete category: ${errorMessage(error)}`;
}

/** The text shown when the server refuses a tag delete: its own message for `tag_in_use`. */
export function tagDeleteError(error: unknown): string {
  if (errorCode(error) === 'tag_in_use') return errorMessage(error);
  return 'Failed to delete tag. Please try again.';
}

/** Spec §8 texts for refused category and tag deletes (client block and server replies). */
export function categoryInUseMessage(name: string, count: number): string {
  return `Cannot delete category "${name}". It is used in ${count} post(s). Remove the category from all posts first.`;
}

export function tagInUseMessage(name: string, count: number): string {
  return `Cannot delete tag "${name}". It is used in ${count} post(s). Remove the tag from all posts first.`;
}

export function categoryDeleteError(message: string): string {
  if (message.includes('currently used in posts')) return 'Cannot delete category. It is currently being used in posts.';
  return `Failed to delete category: ${message || 'Unknown error'}`;
}

export function tagDeleteError(message: string): string {
  if (message.includes('Cannot delete tag') || message.includes('currently used in posts')) return message;
  return 'Failed to delete tag. Please try again.';
}

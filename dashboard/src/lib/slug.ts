/** Lowercase; runs of non-alphanumerics become one hyphen; leading and trailing hyphens trimmed. */
export function slugify(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

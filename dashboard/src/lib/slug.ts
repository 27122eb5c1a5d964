/** Lowercase; runs of non-alphanumerics become one hyphen; leading and trailing hyphens trimmed. */
export function slugify(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Keeps a slug field following a name field while the slug is empty or still equal to the
 * slug derived from the previous name (spec §4); once edited by hand it stays as typed.
 */
export function nextAutoSlug(previousName: string, nextName: string, currentSlug: string): string {
  return !currentSlug || currentSlug === slugify(previousName) ? slugify(nextName) : currentSlug;
}

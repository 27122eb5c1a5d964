/** The events of the API (`GET /api/webhooks` `events`), grouped by what they are about:
 * `post.published` -> "Posts". Unknown prefixes get a group of their own. */
const GROUP_LABELS: Record<string, string> = {
  post: 'Posts',
  category: 'Categories',
  tag: 'Tags',
  media: 'Media',
  batch: 'Bulk', // `batch.completed`: one event for a whole bulk action ("All bulk events")
  import: 'Imports', // `import.completed`: one event for a whole blog import
};

export function groupEvents(events: string[]): { key: string; label: string; events: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const event of events) {
    const key = event.split('.')[0];
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  return [...groups.entries()].map(([key, list]) => ({ key, label: GROUP_LABELS[key] ?? key, events: list }));
}

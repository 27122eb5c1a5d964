import { formatNumber } from '@/lib/format';

/** "1 comment", "33 comments". */
export function plural(n: number, one: string, many: string): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** The kinds of what an import does not bring over (apps.portability.importer.NOT_BROUGHT_OVER). */
const LEFT_OUT: Record<string, [string, string]> = {
  attachment: ['media library item', 'media library items'],
  comment: ['comment', 'comments'],
  nav_menu_item: ['menu item', 'menu items'],
  custom_field: ['custom field', 'custom fields'],
  member: ['member', 'members'],
};

/** "33 comments", "1 menu item"; an unknown kind by its name. */
export function leftOut(kind: string, count: number): string {
  const [one, many] = LEFT_OUT[kind] ?? [kind.replace(/_/g, ' '), kind.replace(/_/g, ' ')];
  return plural(count, one, many);
}

import type { Role } from '@/lib/session';

/**
 * The server's capability table (apps/core/permissions.py CAPABILITIES) as GET /api/auth/me sends
 * it to each role, for the component tests; apps/core/tests/test_capabilities.py checks that it
 * matches the server's.
 */
const WRITERS: Role[] = ['admin', 'editor', 'author'];
const EDITORS: Role[] = ['admin', 'editor'];
const EVERYONE: Role[] = ['admin', 'editor', 'author', 'viewer'];
const ADMINS: Role[] = ['admin'];

export const CAPABILITIES: [string, Role[]][] = [
  ['content.read', EVERYONE],
  ['post.create', WRITERS],
  ['post.edit_own', WRITERS],
  ['post.edit_any', EDITORS],
  ['post.publish', EDITORS],
  ['post.change_live', EDITORS],
  ['post.delete_own', WRITERS],
  ['post.delete_any', EDITORS],
  ['post.request_review', WRITERS],
  ['post.review', EDITORS],
  ['taxonomy.create', WRITERS],
  ['taxonomy.manage', EDITORS],
  ['media.upload', WRITERS],
  ['media.edit_own', WRITERS],
  ['media.manage', EDITORS],
  ['ai.generate', WRITERS],
  ['analytics.read', EVERYONE],
  ['users.manage', ADMINS],
  ['settings.manage', ADMINS],
  ['company.delete', ADMINS],
  ['audit.read', ADMINS],
  ['usage.read', ADMINS],
  ['integrations.manage', ADMINS],
  ['members.read', EVERYONE],
  ['members.manage', EDITORS],
  ['newsletters.manage', EDITORS],
  ['newsletters.send', EDITORS],
  ['newsletters.tracking', ADMINS],
];

export function capabilitiesOf(role: Role): string[] {
  return CAPABILITIES.filter(([, roles]) => roles.includes(role)).map(([name]) => name);
}

/** Test tokens are "test-token" (admin) or "test-token-<role>". */
export function tokenFor(role: Role): string {
  return role === 'admin' ? 'test-token' : `test-token-${role}`;
}

export function roleOfToken(header: string | null): Role {
  const match = /test-token-(editor|author|viewer)$/.exec(header ?? '');
  return (match?.[1] as Role | undefined) ?? 'admin';
}

/**
 * The success replies of the public API (docs/api/public.md), as documented by openapi/public.json: aliases
 * of the generated `components['schemas']` (src/schema.d.ts, `npm run gen:api`). The server's
 * replies are checked against that document by apps/public_api/tests/test_reply_schemas.py, and
 * by test/live.test.ts through this client.
 */
import type { components } from './schema.js';

type Schemas = components['schemas'];

export type TermRef = Schemas['TermRefOut'];
/** A post's author: `id`, `username`, then their profile (`name`, `bio`, `profileImage`, ...). */
export type Author = Schemas['AuthorOut'];
/** An image of a post (featured, OG, Twitter): `link`/`cdnUrl` are addresses, `spacesKey` is the storage key. */
export type PostImage = Schemas['FeaturedImageOut'];
/** @deprecated the same as PostImage */
export type FeaturedImage = PostImage;
export type PostSummary = Schemas['PostSummaryOut'];
export type PostStatus = PostSummary['status'];
export type Post = Schemas['PostOut'];
export type Pagination = Schemas['PaginationOut'];
export type PostsPage = Schemas['PostsData'];
export type PostData = Schemas['PostData'];
/** A page (About, Contact): a post's object, listed on its own (GET pages), never among posts. */
export type Page = Schemas['PostOut'];
export type PageSummary = Schemas['PostSummaryOut'];
/** GET pages: `pages` and their `pagination`. */
export type PagesPage = Schemas['PagesData'];
export type PageData = Schemas['PageData'];
export type Category = Schemas['CategoryOut'];
export type Tag = Schemas['TagOut'];
export type CategoriesData = Schemas['CategoriesData'];
export type TagsData = Schemas['TagsData'];
export type TrackReply = Schemas['TrackOut'];
/** The company's site settings (GET settings): title, images, navigation, social accounts... */
export type SiteSettings = Schemas['PublicSettingsOut'];
export type NavigationLink = Schemas['NavigationLinkOut'];
export type SocialAccounts = Schemas['SocialAccountsOut'];

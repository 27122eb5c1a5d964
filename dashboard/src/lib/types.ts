import type { components } from './api-types/dashboard';

/** Entity types of the dashboard API: aliases of the generated OpenAPI schemas (`npm run gen:api`). */
type Schemas = components['schemas'];

export type PostStatus = Schemas['DashboardPostOut']['status'];
export type Category = Schemas['CategoryOut'];
export type Tag = Schemas['TagOut'];
export type Pagination = Schemas['PaginationOut'];
export type MediaRenditions = Schemas['RenditionsOut'];
export type Media = Schemas['MediaOut'];
export type User = Schemas['UserOut'];

/** A usable URL of a media item (link, then CDN URL), or an empty string. */
export function mediaUrl(media?: Partial<Media> | null): string {
  return media?.link || media?.cdnUrl || '';
}

export function mediaThumbnail(media?: Partial<Media> | null): string {
  return media?.renditions?.thumbnail || media?.renditions?.small || mediaUrl(media);
}

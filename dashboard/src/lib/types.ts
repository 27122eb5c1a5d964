import type { Role } from './session';

export type PostStatus = 'draft' | 'published' | 'archived';

export interface Category {
  id: string;
  name: string;
  slug: string;
  description?: string | null;
  postCount?: number;
}

export interface Tag {
  id: string;
  name: string;
  slug: string;
  postCount?: number;
}

export interface Pagination {
  total: number;
  totalPages: number;
  currentPage: number;
  limit: number;
}

export interface MediaRenditions {
  thumbnail?: string | null;
  small?: string | null;
  medium?: string | null;
  large?: string | null;
}

export interface Media {
  id: string;
  fileName: string;
  fileType: string;
  fileSize: number;
  altText?: string | null;
  width?: number | null;
  height?: number | null;
  spacesKey?: string | null;
  link?: string | null;
  cdnUrl?: string | null;
  renditions?: MediaRenditions | null;
  uploadedBy?: { username?: string } | null;
  uploadedAt?: string | null;
  createdAt?: string | null;
}

export interface User {
  id: string;
  userId?: string;
  username: string;
  email: string;
  role: Role;
  status: 'active' | 'inactive' | 'suspended';
  lastLogin?: string | null;
  createdAt?: string | null;
}

/** A usable URL of a media item (link, then CDN URL), or an empty string. */
export function mediaUrl(media?: Partial<Media> | null): string {
  return media?.link || media?.cdnUrl || '';
}

export function mediaThumbnail(media?: Partial<Media> | null): string {
  return media?.renditions?.thumbnail || media?.renditions?.small || mediaUrl(media);
}

import { z } from 'zod';
import type { SiteImage, SiteSettings, SiteSettingsUpdate, SocialNetwork } from '@/api/site';
import type { PickedImage } from '@/components/media/ImagePickerField';

/** The rules of apps/site/rules.py, with the server's messages (it checks them again). */
export const NAVIGATION_MAX = 50;
const LABEL_MAX = 100;
export const WEBSITE_MESSAGE = 'Website must be a web address starting with http:// or https://';
export const TEMPLATE_MESSAGE = 'Post URL template must be a web address containing {slug} once, e.g. https://acme.com/blog/{slug}';
export const COLOR_MESSAGE = 'Accent color must be a hex color such as #ff6600';
export const LINK_MESSAGE = 'The address must start with http://, https:// or /';

const WEB = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
const COLOR = /^#[0-9a-f]{6}$/i;

const max = (name: string, n: number) => z.string().max(n, `${name} must be at most ${n} characters`);

/** An address of a navigation link: http(s), or a path of the site (`/about`), never `//host`. */
export function isLinkAddress(value: string): boolean {
  const v = value.trim();
  if (v.startsWith('/')) return !v.startsWith('//') && !/[\s\\<>"'`]/.test(v);
  return WEB.test(v);
}

const link = z.object({
  label: z.string().trim().min(1, 'A label is required').max(LABEL_MAX, `A label must be at most ${LABEL_MAX} characters`),
  url: z.string().trim().refine(isLinkAddress, LINK_MESSAGE),
});

const links = (name: string) => z.array(link).max(NAVIGATION_MAX, `${name} can have at most ${NAVIGATION_MAX} links`);

/** The social networks a site names, as people write them (the server's names). */
export const NETWORKS: { key: SocialNetwork; label: string; placeholder: string }[] = [
  { key: 'twitter', label: 'X (Twitter)', placeholder: '@acme or https://x.com/acme' },
  { key: 'facebook', label: 'Facebook', placeholder: 'acme or https://www.facebook.com/acme' },
  { key: 'instagram', label: 'Instagram', placeholder: '@acme' },
  { key: 'linkedin', label: 'LinkedIn', placeholder: 'acme or https://www.linkedin.com/company/acme' },
  { key: 'youtube', label: 'YouTube', placeholder: '@acme' },
  { key: 'tiktok', label: 'TikTok', placeholder: '@acme' },
  { key: 'threads', label: 'Threads', placeholder: '@acme' },
  { key: 'bluesky', label: 'Bluesky', placeholder: 'acme.bsky.social' },
  { key: 'mastodon', label: 'Mastodon', placeholder: '@acme@mastodon.social' },
];

const image = z.object({ id: z.string().nullable(), url: z.string(), alt: z.string().optional() }).nullable();

export const siteSchema = z.object({
  title: max('Title', 200),
  description: max('Description', 500),
  metaTitle: max('SEO title', 300),
  metaDescription: max('SEO description', 500),
  logo: image,
  icon: image,
  coverImage: image,
  accentColor: z.string().trim().refine((v) => v === '' || COLOR.test(v), COLOR_MESSAGE),
  websiteUrl: z
    .string()
    .trim()
    .refine((v) => v === '' || WEB.test(v), WEBSITE_MESSAGE)
    .refine((v) => v.length <= 500, 'Website must be at most 500 characters'),
  postUrlTemplate: z
    .string()
    .trim()
    .refine(
      (v) => v === '' || (v.split('{slug}').length === 2 && v.length <= 500 && WEB.test(v.replace('{slug}', 'x').replace('{locale}', 'en'))),
      TEMPLATE_MESSAGE,
    ),
  social: z.record(z.string(), z.string().max(500)),
  navigation: links('Navigation'),
  secondaryNavigation: links('Secondary navigation'),
});

export type SiteValues = z.infer<typeof siteSchema>;
export type LinkListName = 'navigation' | 'secondaryNavigation';

const picked = (img: SiteImage | null): PickedImage | null => (img?.url ? { id: img.mediaId, url: img.url } : null);

export function siteValues(site: SiteSettings): SiteValues {
  return {
    title: site.title,
    description: site.description,
    metaTitle: site.metaTitle,
    metaDescription: site.metaDescription,
    logo: picked(site.logo),
    icon: picked(site.icon),
    coverImage: picked(site.coverImage),
    accentColor: site.accentColor,
    websiteUrl: site.websiteUrl,
    postUrlTemplate: site.postUrlTemplate,
    social: { ...site.social },
    navigation: site.navigation.map(({ label, url }) => ({ label, url })),
    secondaryNavigation: site.secondaryNavigation.map(({ label, url }) => ({ label, url })),
  };
}

/** An image as PUT takes it: the library's id, else its address (an import's), "" removes it. */
const imageRef = (img: PickedImage | null) => (img ? (img.id ?? img.url) : '');

export function siteUpdate(v: SiteValues): SiteSettingsUpdate {
  const trimmed = (list: SiteValues['navigation']) => list.map((l) => ({ label: l.label.trim(), url: l.url.trim() }));
  return {
    title: v.title.trim(),
    description: v.description.trim(),
    metaTitle: v.metaTitle.trim(),
    metaDescription: v.metaDescription.trim(),
    logo: imageRef(v.logo),
    icon: imageRef(v.icon),
    coverImage: imageRef(v.coverImage),
    accentColor: v.accentColor.trim().toLowerCase(),
    websiteUrl: v.websiteUrl.trim(),
    postUrlTemplate: v.postUrlTemplate.trim(),
    social: Object.fromEntries(NETWORKS.map(({ key }) => [key, (v.social[key] ?? '').trim()])),
    navigation: trimmed(v.navigation),
    secondaryNavigation: trimmed(v.secondaryNavigation),
  };
}

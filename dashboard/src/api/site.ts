import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** The site around the posts (docs/company-settings.md#site-settings): what a website built on the
 *  content API needs besides its posts. Everyone signed in reads it; admins change it. */
export type SiteSettings = Schemas['SiteSettingsOut'];
export type SiteImage = Schemas['SiteImageOut'];
export type NavigationLink = Schemas['NavigationLinkOut'];
export type SocialAccounts = Schemas['SocialAccountsFormOut'];
export type SocialNetwork = keyof SocialAccounts;

/** PUT client/site: a field left out is kept; images are a media id or an address ("" removes);
 *  `social` sets the networks it names; a navigation replaces the whole list. */
export type SiteSettingsUpdate = Omit<Schemas['SiteSettingsIn'], 'navigation' | 'secondaryNavigation' | 'social'> & {
  navigation?: NavigationLink[];
  secondaryNavigation?: NavigationLink[];
  social?: Partial<SocialAccounts>;
};

const SITE = { type: 'Client' as const, id: 'SITE' };

export const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSite: build.query<SiteSettings, void>({
      query: () => 'client/site',
      transformResponse: (r: Schemas['SiteSettingsReply']) => r.site,
      providesTags: [SITE],
    }),
    updateSite: build.mutation<Schemas['SiteSettingsReply'], SiteSettingsUpdate>({
      query: (body) => ({ url: 'client/site', method: 'PUT', body }),
      // The website's address is the company's too (client/info).
      invalidatesTags: [SITE, 'Client'],
    }),
  }),
});

export const { useGetSiteQuery, useUpdateSiteMutation } = siteApi;

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/lib/session';
import { MEDIA, settingsHandlers } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { EMPTY_SITE, server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });

const SITE = {
  ...EMPTY_SITE,
  title: 'Acme Journal',
  description: 'News from Acme',
  logo: { mediaId: 'm0', url: 'http://demo.localhost/media/logo.png' },
  accentColor: '#ff6600',
  websiteUrl: 'https://www.acme.test',
  postUrlTemplate: 'https://www.acme.test/blog/{slug}',
  navigation: [
    { label: 'Home', url: '/' },
    { label: 'About', url: '/about' },
    { label: 'Blog', url: '/blog' },
  ],
  secondaryNavigation: [{ label: 'Privacy', url: '/privacy' }],
  social: { ...EMPTY_SITE.social, twitter: 'https://x.com/acme' },
  updatedAt: '2024-05-01T10:00:00Z',
};

function siteApi(reply: (body: Record<string, unknown>) => Response | undefined = () => undefined) {
  const sent: Record<string, unknown>[] = [];
  let site = SITE;
  server.use(
    http.get('*/api/client/site', () => HttpResponse.json({ success: true, site })),
    http.put('*/api/client/site', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push(body);
      const refused = reply(body);
      if (refused) return refused;
      site = { ...site, ...(body as object), logo: site.logo, updatedAt: '2024-05-02T10:00:00Z' } as typeof SITE;
      return HttpResponse.json({ success: true, message: 'Site settings saved', site });
    }),
    http.get('*/api/media', () => HttpResponse.json({ success: true, media: MEDIA, page: 1, limit: 12, totalItems: 1, totalPages: 1 })),
  );
  return sent;
}

const linkLabels = (list: HTMLElement) =>
  within(list)
    .getAllByRole('group')
    .map((g) => (within(g).getByLabelText('Label') as HTMLInputElement).value);

const navigation = () => screen.getByRole('list', { name: 'Navigation' });

describe('Settings → Site', () => {
  it('the Settings screen shows the site in short, with the way to its settings', async () => {
    server.use(...settingsHandlers, http.get('*/api/client/site', () => HttpResponse.json({ success: true, site: SITE })));
    renderApp('/dashboard/settings', { session: signedIn() });
    const card = (await screen.findByRole('heading', { name: 'Site' })).closest('section')!;
    expect(await within(card).findByText('Acme Journal')).toBeInTheDocument();
    expect(within(card).getByText('https://www.acme.test')).toBeInTheDocument();
    expect(within(card).getByText(/3 links, 1 in the/)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Edit site settings/ })).toHaveAttribute('href', '/dashboard/settings/site');
  });

  it('an admin reorders the navigation by keyboard, adds and removes links, sets the website, and saves', async () => {
    const sent = siteApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings/site', { session: signedIn() });
    expect(await screen.findByLabelText('Title')).toHaveValue('Acme Journal');
    expect(linkLabels(navigation())).toEqual(['Home', 'About', 'Blog']);
    expect(within(navigation()).getByRole('button', { name: 'Move link 1 up' })).toBeDisabled();

    // Blog to the top, by keyboard: focus follows the moved link, a live region says where it went.
    within(navigation()).getByRole('button', { name: 'Move link 3 up' }).focus();
    await user.keyboard('{Enter}');
    expect(linkLabels(navigation())).toEqual(['Home', 'Blog', 'About']);
    expect(within(navigation()).getByRole('button', { name: 'Move link 2 up' })).toHaveFocus();
    expect(screen.getByText('Blog moved to position 2 of 3')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(linkLabels(navigation())).toEqual(['Blog', 'Home', 'About']);
    // At the top its Move up is disabled: focus is on its Move down.
    expect(within(navigation()).getByRole('button', { name: 'Move link 1 down' })).toHaveFocus();

    // By pointer: About down... it is last; Home down.
    await user.click(within(navigation()).getByRole('button', { name: 'Move link 2 down' }));
    expect(linkLabels(navigation())).toEqual(['Blog', 'About', 'Home']);

    // Add a link (its label gets focus), remove Home.
    await user.click(screen.getByRole('button', { name: 'Add link to Navigation' }));
    expect(within(navigation()).getAllByLabelText('Label')[3]).toHaveFocus();
    await user.keyboard('Contact');
    await user.type(within(navigation()).getAllByLabelText('Address')[3], '/contact');
    await user.click(within(navigation()).getByRole('button', { name: 'Remove link 3' }));
    expect(linkLabels(navigation())).toEqual(['Blog', 'About', 'Contact']);

    await user.clear(screen.getByLabelText('Website address'));
    await user.type(screen.getByLabelText('Website address'), 'https://acme.example');
    await user.click(screen.getByRole('button', { name: 'Save site settings' }));
    expect(await screen.findByText('Site settings saved')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({
      title: 'Acme Journal',
      websiteUrl: 'https://acme.example',
      postUrlTemplate: 'https://www.acme.test/blog/{slug}',
      accentColor: '#ff6600',
      logo: 'm0',
      icon: '',
      navigation: [
        { label: 'Blog', url: '/blog' },
        { label: 'About', url: '/about' },
        { label: 'Contact', url: '/contact' },
      ],
      secondaryNavigation: [{ label: 'Privacy', url: '/privacy' }],
    });
    expect((sent[0].social as Record<string, string>).twitter).toBe('https://x.com/acme');
  });

  it('checks the fields before sending, with the server rules messages', async () => {
    const sent = siteApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings/site', { session: signedIn() });
    await user.clear(await screen.findByLabelText('Website address'));
    await user.type(screen.getByLabelText('Website address'), 'acme.test');
    await user.clear(screen.getByLabelText('Post URL template'));
    await user.type(screen.getByLabelText('Post URL template'), 'https://acme.test/blog/');
    await user.clear(screen.getByLabelText('Accent color'));
    await user.type(screen.getByLabelText('Accent color'), 'orange');
    await user.clear(within(navigation()).getAllByLabelText('Label')[1]);
    await user.clear(within(navigation()).getAllByLabelText('Address')[2]);
    await user.type(within(navigation()).getAllByLabelText('Address')[2], '//evil.test');
    await user.click(screen.getByRole('button', { name: 'Save site settings' }));
    expect(await screen.findByText('Website must be a web address starting with http:// or https://')).toBeInTheDocument();
    expect(screen.getByText('Post URL template must be a web address containing {slug} once, e.g. https://acme.com/blog/{slug}')).toBeInTheDocument();
    expect(screen.getByText('Accent color must be a hex color such as #ff6600')).toBeInTheDocument();
    expect(within(navigation()).getByText('A label is required')).toBeInTheDocument();
    expect(within(navigation()).getByText('The address must start with http://, https:// or /')).toBeInTheDocument();
    expect(within(navigation()).getAllByLabelText('Label')[1]).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toHaveLength(0);
  });

  it("shows the server's refusal of a social account, and picks the icon from the media library", async () => {
    const sent = siteApi((body) =>
      (body.social as Record<string, string>).instagram === 'https://evil.test/x'
        ? HttpResponse.json(
            {
              success: false,
              error: 'validation_error',
              message: 'Instagram must be a Instagram handle or the address of a Instagram profile',
              errors: [{ field: 'social', message: 'Instagram must be a Instagram handle or the address of a Instagram profile' }],
            },
            { status: 400 },
          )
        : undefined,
    );
    const user = userEvent.setup();
    renderApp('/dashboard/settings/site', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Select Icon' }));
    const picker = await screen.findByRole('dialog', { name: 'Select Icon' });
    await user.click(await within(picker).findByRole('button', { name: 'hero.png' }));
    await user.type(screen.getByLabelText('Instagram'), 'https://evil.test/x');
    await user.click(screen.getByRole('button', { name: 'Save site settings' }));
    const social = (await screen.findByRole('heading', { name: 'Social accounts' })).closest('section')!;
    expect(await within(social).findByText('Instagram must be a Instagram handle or the address of a Instagram profile')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ icon: 'm1' });
  });

  it.each(['editor', 'author', 'viewer'] as Role[])('the %s role reads the settings: nothing to change, no Save', async (role) => {
    siteApi();
    renderApp('/dashboard/settings/site', { session: as(role) });
    expect(await screen.findByLabelText('Title')).toBeDisabled();
    expect(screen.getByText('Only administrators change the site settings; you can read them.')).toBeInTheDocument();
    expect(linkLabels(navigation())).toEqual(['Home', 'About', 'Blog']);
    expect(screen.queryByRole('button', { name: /Move link/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add link/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save site settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Select (Icon|Cover Image)/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Back to settings' }).length).toBeGreaterThan(0);
  });
});

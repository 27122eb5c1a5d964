import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MEDIA } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const editor = { userId: 'u-2', username: 'bob', role: 'editor' as const };
const BOB = { id: 'u-2', userId: 'u-2', username: 'bob', email: 'bob@x.test', role: 'editor', status: 'active', lastLogin: null };
const PROFILE = {
  name: 'bob',
  displayName: '',
  bio: '',
  profileImage: 'https://cdn.example.com/bob.png',
  coverImage: '',
  website: '',
  location: 'Lyon',
  facebook: '',
  twitter: '',
};

function profileApi(id = 'u-2', refuse?: (body: Record<string, string>) => Response | undefined) {
  const sent: Record<string, string>[] = [];
  let profile = PROFILE;
  server.use(
    http.get(`*/api/users/${id}`, () => HttpResponse.json({ success: true, user: { ...BOB, id, userId: id } })),
    http.get(`*/api/users/${id}/profile`, () => HttpResponse.json({ success: true, profile })),
    http.put(`*/api/users/${id}/profile`, async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      sent.push(body);
      const refused = refuse?.(body);
      if (refused) return refused;
      profile = { ...profile, ...body, name: body.displayName || 'bob', profileImage: body.profileImage === 'm1' ? MEDIA[0].link : body.profileImage };
      return HttpResponse.json({ success: true, message: 'Profile saved', profile });
    }),
    http.get('*/api/media', () => HttpResponse.json({ success: true, media: MEDIA, page: 1, limit: 12, totalItems: 1, totalPages: 1 })),
  );
  return sent;
}

const section = async () => (await screen.findByRole('heading', { name: 'Author profile' })).closest('section')!;

describe('author profile', () => {
  it('on My account: display name, bio, a new picture from the media library, website; saved through users/{id}/profile', async () => {
    const sent = profileApi();
    const user = userEvent.setup();
    renderApp('/dashboard/account', { session: signedIn(editor) });
    const card = await section();
    expect(await within(card).findByLabelText('Location')).toHaveValue('Lyon');
    expect(within(card).getByText('What readers see of you on your posts. Your username stays what you sign in with.')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Profile image' })).toHaveAttribute('src', 'https://cdn.example.com/bob.png');
    await user.type(within(card).getByLabelText('Display name'), 'Bob Martin');
    await user.type(within(card).getByLabelText('Bio'), 'Writes about bridges.');
    expect(within(card).getByText('21/250')).toBeInTheDocument();
    await user.click(within(within(card).getByRole('group', { name: 'Profile image' })).getByRole('button', { name: /Change Image/ }));
    const picker = await screen.findByRole('dialog', { name: 'Select Profile Image' });
    await user.click(await within(picker).findByRole('button', { name: 'hero.png' }));
    await user.type(within(card).getByLabelText('Website'), 'https://bob.example');
    await user.type(within(card).getByLabelText('X (Twitter)'), '@bob');
    await user.click(within(card).getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    expect(sent[0]).toEqual({
      displayName: 'Bob Martin',
      bio: 'Writes about bridges.',
      location: 'Lyon',
      website: 'https://bob.example',
      facebook: '',
      twitter: '@bob',
      profileImage: 'm1',
      coverImage: '',
    });
  });

  it('a kept picture is sent back as its address; the rules are checked first', async () => {
    const sent = profileApi();
    const user = userEvent.setup();
    renderApp('/dashboard/account', { session: signedIn(editor) });
    const card = await section();
    await user.type(await within(card).findByLabelText('Website'), 'bob.example');
    await user.type(within(card).getByLabelText('Bio'), 'x'.repeat(251));
    expect(within(card).getByText('251/250')).toHaveClass('over');
    await user.click(within(card).getByRole('button', { name: 'Save profile' }));
    expect(await within(card).findByText('Website must be a web address starting with http:// or https://')).toBeInTheDocument();
    expect(within(card).getByText('Bio must be at most 250 characters')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.clear(within(card).getByLabelText('Website'));
    await user.clear(within(card).getByLabelText('Bio'));
    await user.type(within(card).getByLabelText('Display name'), 'Bob');
    await user.click(within(card).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].profileImage).toBe('https://cdn.example.com/bob.png');
  });

  it("shows the server's message on the field it names", async () => {
    profileApi('u-2', (body) =>
      body.twitter
        ? HttpResponse.json(
            {
              success: false,
              error: 'validation_error',
              message: 'X (Twitter) must be a X (Twitter) handle or the address of a X (Twitter) profile',
              errors: [{ field: 'twitter', message: 'X (Twitter) must be a X (Twitter) handle or the address of a X (Twitter) profile' }],
            },
            { status: 400 },
          )
        : undefined,
    );
    const user = userEvent.setup();
    renderApp('/dashboard/account', { session: signedIn(editor) });
    const card = await section();
    await user.type(await within(card).findByLabelText('X (Twitter)'), 'https://evil.test/bob');
    await user.click(within(card).getByRole('button', { name: 'Save profile' }));
    expect(await within(card).findByText('X (Twitter) must be a X (Twitter) handle or the address of a X (Twitter) profile')).toBeInTheDocument();
    expect(within(card).getByLabelText('X (Twitter)')).toHaveAttribute('aria-invalid', 'true');
  });

  it("an admin edits another writer's profile on the user's edit screen", async () => {
    const sent = profileApi('u-7');
    server.use(http.get('*/api/users', () => HttpResponse.json({ success: true, users: [] })));
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-7', { session: signedIn() });
    const card = await section();
    expect(await within(card).findByText(/What readers see of this writer on their posts/)).toBeInTheDocument();
    await user.type(within(card).getByLabelText('Display name'), 'Sam');
    await user.click(within(card).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(sent[0]?.displayName).toBe('Sam'));
  });
});

import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { Role } from '@/lib/session';

type Schemas = components['schemas'];
export type User = Schemas['UserOut'];

export interface UserCreateBody {
  username: string;
  email: string;
  password: string;
  role: Role;
}

export type UserUpdateBody = Partial<{
  username: string;
  email: string;
  password: string;
  /** Needed to change one's own password or email. */
  currentPassword: string;
  role: Role;
  status: User['status'];
}>;

/** What readers see of a staff member who writes (docs/accounts.md#author-profile). */
export type AuthorProfile = Schemas['AuthorProfileOut'];
/** PUT users/{id}/profile: a field left out is kept, "" clears one; images a media id or an address. */
export type AuthorProfileUpdate = Partial<Omit<AuthorProfile, 'name'>>;

const profileTag = (id: string) => ({ type: 'User' as const, id: `PROFILE-${id}` });

/** The user's id as the routes take it. */
export const userId = (u: User) => String(u.userId ?? u.id);

/** The company's users (admins list, create and delete them; everyone reads and edits their own). */
export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsers: build.query<User[], void>({
      query: () => 'users',
      transformResponse: (r: Partial<Schemas['UserListOut']>) => (Array.isArray(r.users) ? r.users : []),
      providesTags: (result) => [{ type: 'User' as const, id: 'LIST' }, ...(result ?? []).map((u) => ({ type: 'User' as const, id: u.id }))],
    }),
    getUser: build.query<User, string>({
      query: (id) => `users/${id}`,
      transformResponse: (r: Schemas['UserReplyOut']) => r.user,
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    createUser: build.mutation<Schemas['UserCreatedOut'], UserCreateBody>({
      query: (body) => ({ url: 'auth/register-user', method: 'POST', body }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }, 'Dashboard'],
    }),
    updateUser: build.mutation<Schemas['UserUpdatedOut'], { id: string; body: UserUpdateBody }>({
      query: ({ id, body }) => ({ url: `users/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }],
    }),
    /** Admins: invite the owner of an account that waits, inactive and without a password (made by a
     *  blog import); accepting the invitation activates this account, with its posts. */
    inviteUser: build.mutation<Schemas['InvitationReplyOut'], string>({
      query: (id) => ({ url: `users/${id}/invite`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'User', id }, { type: 'Invitation', id: 'LIST' }],
    }),
    deleteUser: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `users/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }, 'Dashboard'],
    }),
    /** Your own author profile, or anyone's as an admin. */
    getProfile: build.query<AuthorProfile, string>({
      query: (id) => `users/${id}/profile`,
      transformResponse: (r: Schemas['AuthorProfileReply']) => r.profile,
      providesTags: (_r, _e, id) => [profileTag(id)],
    }),
    updateProfile: build.mutation<Schemas['AuthorProfileReply'], { id: string; body: AuthorProfileUpdate }>({
      query: ({ id, body }) => ({ url: `users/${id}/profile`, method: 'PUT', body }),
      // Posts carry their author's profile.
      invalidatesTags: (_r, _e, { id }) => [profileTag(id), { type: 'Post', id: 'LIST' }],
    }),
  }),
});

export const { useGetProfileQuery, useUpdateProfileMutation } = usersApi;

export const {
  useGetUsersQuery,
  useGetUserQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useInviteUserMutation,
} = usersApi;

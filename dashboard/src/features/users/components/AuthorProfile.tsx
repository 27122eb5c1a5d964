import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { z } from 'zod';
import { useGetProfileQuery, useUpdateProfileMutation, type AuthorProfile as Profile, type AuthorProfileUpdate } from '@/api/users';
import { bind, TextAreaField, TextField } from '@/components/form';
import { ImagePickerField, type PickedImage } from '@/components/media/ImagePickerField';
import { toastFailure } from '@/components/notify';
import { QueryState } from '@/components/QueryState';
import { Spinner } from '@/components/Spinner';
import { errorMessage, isApiError } from '@/lib/errors';

/** The rules of apps/site/rules.py for a profile (Ghost's column sizes), with the server's messages. */
const BIO_MAX = 250;
const max = (name: string, n: number) => z.string().max(n, `${name} must be at most ${n} characters`);
const image = z.object({ id: z.string().nullable(), url: z.string(), alt: z.string().optional() }).nullable();
const schema = z.object({
  displayName: max('Display name', 191),
  bio: max('Bio', BIO_MAX),
  location: max('Location', 150),
  website: z
    .string()
    .trim()
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'Website must be a web address starting with http:// or https://'),
  facebook: max('Facebook', 500),
  twitter: max('X (Twitter)', 500),
  profileImage: image,
  coverImage: image,
});
type Values = z.infer<typeof schema>;
const FIELDS = ['displayName', 'bio', 'location', 'website', 'facebook', 'twitter', 'profileImage', 'coverImage'] as const;

const picked = (url: string): PickedImage | null => (url ? { id: null, url } : null);

function valuesOf(p: Profile): Values {
  return {
    displayName: p.displayName,
    bio: p.bio,
    location: p.location,
    website: p.website,
    facebook: p.facebook,
    twitter: p.twitter,
    profileImage: picked(p.profileImage),
    coverImage: picked(p.coverImage),
  };
}

/** An image as PUT takes it: a newly chosen one by its media id, a kept one by its address. */
const imageRef = (img: PickedImage | null) => (img ? (img.id ?? img.url) : '');

function ProfileForm({ userId, profile, own }: { userId: string; profile: Profile; own: boolean }) {
  const [save] = useUpdateProfileMutation();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(profile) });
  const { control, formState, setError, reset, watch } = form;
  const bio = watch('bio');

  async function submit(v: Values) {
    const body: AuthorProfileUpdate = {
      displayName: v.displayName.trim(),
      bio: v.bio.trim(),
      location: v.location.trim(),
      website: v.website.trim(),
      facebook: v.facebook.trim(),
      twitter: v.twitter.trim(),
      profileImage: imageRef(v.profileImage),
      coverImage: imageRef(v.coverImage),
    };
    try {
      const reply = await save({ id: userId, body }).unwrap();
      toast.success(reply.message || 'Profile saved');
      reset(valuesOf(reply.profile));
    } catch (err) {
      const known = (isApiError(err) ? (err.errors ?? []) : []).filter((e) => (FIELDS as readonly string[]).includes(e.field));
      known.forEach((e) => setError(e.field as (typeof FIELDS)[number], { message: e.message }));
      if (!known.length) toastFailure(err, errorMessage(err, 'Could not save the profile'));
    }
  }

  return (
    <form className="stack" noValidate onSubmit={form.handleSubmit(submit)} aria-labelledby="author-profile-title">
      <p className="small muted" style={{ margin: 0 }}>
        What readers see of {own ? 'you' : 'this writer'} on {own ? 'your' : 'their'} posts. Your username stays what you sign
        in with.
      </p>
      <div className="grid-2">
        <TextField label="Display name" hint={`Shown instead of the username: ${profile.name}`} autoComplete="name" {...bind(form, 'displayName')} />
        <TextField label="Location" {...bind(form, 'location')} />
      </div>
      <TextAreaField
        label="Bio"
        aside={
          <span className={bio.length > BIO_MAX ? 'counter over' : 'counter'} aria-live="polite">
            {bio.length}/{BIO_MAX}
          </span>
        }
        {...bind(form, 'bio')}
      />
      <div className="grid-2">
        {(
          [
            ['profileImage', 'Profile image', 'Select Profile Image', 'contain'],
            ['coverImage', 'Cover image', 'Select Cover Image', 'cover'],
          ] as const
        ).map(([name, label, pick, fit]) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <ImagePickerField label={label} pickLabel={pick} fit={fit} value={field.value} onChange={field.onChange} error={formState.errors[name]?.message} />
            )}
          />
        ))}
      </div>
      <div className="grid-3">
        <TextField label="Website" type="url" inputMode="url" placeholder="https://..." autoComplete="url" {...bind(form, 'website')} />
        <TextField label="Facebook" placeholder="acme or https://www.facebook.com/acme" {...bind(form, 'facebook')} />
        <TextField label="X (Twitter)" placeholder="@acme or https://x.com/acme" {...bind(form, 'twitter')} />
      </div>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting || !formState.isDirty}>
          {formState.isSubmitting ? <Spinner small label="Saving" /> : null}
          Save profile
        </button>
      </div>
    </form>
  );
}

/** The author profile (display name, bio, images, website, location, Facebook and X): one's own on
 *  My account, anyone's for an admin on the user's edit screen. */
export function AuthorProfile({ userId, own }: { userId: string; own: boolean }) {
  const profile = useGetProfileQuery(userId, { refetchOnMountOrArgChange: true });
  return (
    <section className="card card-body stack" style={{ maxWidth: 640, marginTop: 16 }} aria-labelledby="author-profile-title">
      <h2 id="author-profile-title" className="card-title">
        Author profile
      </h2>
      <QueryState query={profile} compact loading="Loading the profile" error="Could not load the profile">
        {(data) => <ProfileForm userId={userId} profile={data} own={own} />}
      </QueryState>
    </section>
  );
}

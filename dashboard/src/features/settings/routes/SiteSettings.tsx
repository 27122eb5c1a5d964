import { useMemo, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useGetSiteQuery, useUpdateSiteMutation, type SiteSettings as Site } from '@/api/site';
import { useCan } from '@/api/session';
import { Card } from '@/components/Card';
import { bind, TextAreaField, TextField } from '@/components/form';
import { Field } from '@/components/Field';
import { ImagePickerField } from '@/components/media/ImagePickerField';
import { toastFailure } from '@/components/notify';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Spinner } from '@/components/Spinner';
import { errorMessage, isApiError } from '@/lib/errors';
import { LinkListField } from '../components/LinkListField';
import { NETWORKS, siteSchema, siteUpdate, siteValues, type SiteValues } from '../siteSchema';

/** Fields of the form a 400 may name (the server's names are the form's). */
const FIELDS = ['title', 'description', 'metaTitle', 'metaDescription', 'logo', 'icon', 'coverImage', 'accentColor', 'websiteUrl', 'postUrlTemplate'] as const;

function SiteForm({ site, canEdit }: { site: Site; canEdit: boolean }) {
  const defaults = useMemo(() => siteValues(site), [site]);
  const form = useForm<SiteValues>({ resolver: zodResolver(siteSchema), defaultValues: defaults });
  const { control, register, formState, setError, reset, watch } = form;
  const [save, { isLoading }] = useUpdateSiteMutation();
  // What the server refused about a whole list or the social accounts (its 400 names the field).
  const [listErrors, setListErrors] = useState<Record<string, string>>({});
  const readOnly = !canEdit;
  const color = watch('accentColor');

  async function submit(values: SiteValues) {
    setListErrors({});
    try {
      const reply = await save(siteUpdate(values)).unwrap();
      toast.success(reply.message || 'Site settings saved');
      reset(siteValues(reply.site));
    } catch (err) {
      const found: Record<string, string> = {};
      for (const e of isApiError(err) ? (err.errors ?? []) : []) {
        const field = e.field.split('.')[0];
        if ((FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { message: e.message });
        else found[field] = e.message;
      }
      setListErrors(found);
      if (!isApiError(err) || !err.errors?.length) toastFailure(err, errorMessage(err, 'Could not save the site settings'));
      else toast.error('Please check the fields marked');
    }
  }

  const socialError = listErrors.social;
  return (
    <FormProvider {...form}>
      <form className="stack" style={{ gap: 16 }} noValidate onSubmit={form.handleSubmit(submit)} aria-label="Site settings">
        {readOnly ? (
          <p className="notice" role="status">
            Only administrators change the site settings; you can read them.
          </p>
        ) : null}
        <fieldset className="fieldset-contents" disabled={readOnly}>
          <div className="grid-2" style={{ alignItems: 'start' }}>
            <Card title="The site">
              <TextField label="Title" hint="Empty: the company's name" {...bind(form, 'title')} />
              <TextAreaField label="Description" {...bind(form, 'description')} />
              <Field label="Accent color" htmlFor="accentColor" error={formState.errors.accentColor?.message} hint="The website's main color, such as #ff6600">
                <div className="color-row">
                  <input
                    type="color"
                    aria-label="Pick the accent color"
                    value={/^#[0-9a-f]{6}$/i.test(color) ? color : '#000000'}
                    onChange={(e) => form.setValue('accentColor', e.target.value, { shouldDirty: true, shouldValidate: true })}
                  />
                  <input id="accentColor" className="input" placeholder="#ff6600" aria-invalid={!!formState.errors.accentColor} {...register('accentColor')} />
                </div>
              </Field>
            </Card>
            <Card title="Website">
              <TextField
                label="Website address"
                type="url"
                inputMode="url"
                placeholder="https://www.example.com"
                hint="Where your site lives: feeds, the sitemap and post links point there"
                {...bind(form, 'websiteUrl')}
              />
              <TextField
                label="Post URL template"
                placeholder="https://www.example.com/blog/{slug}"
                hint="Where a post lives on your site: {slug} once, {locale} optional"
                {...bind(form, 'postUrlTemplate')}
              />
              <TextField label="SEO title" hint="The home page's title in search engines" {...bind(form, 'metaTitle')} />
              <TextAreaField label="SEO description" {...bind(form, 'metaDescription')} />
            </Card>
          </div>
          <Card title="Images">
            <div className="grid-3">
              {(
                [
                  ['logo', 'Logo', 'Select Logo', 'contain'],
                  ['icon', 'Icon', 'Select Icon', 'contain'],
                  ['coverImage', 'Cover image', 'Select Cover Image', 'cover'],
                ] as const
              ).map(([name, label, pick, fit]) => (
                <Controller
                  key={name}
                  control={control}
                  name={name}
                  render={({ field }) => (
                    <ImagePickerField
                      label={label}
                      pickLabel={pick}
                      fit={fit}
                      value={field.value}
                      onChange={(v) => field.onChange(v)}
                      error={formState.errors[name]?.message}
                      readOnly={readOnly}
                    />
                  )}
                />
              ))}
            </div>
          </Card>
          <div className="grid-2" style={{ alignItems: 'start' }}>
            <LinkListField
              name="navigation"
              title="Navigation"
              description="The site's main menu, in order."
              readOnly={readOnly}
              serverError={listErrors.navigation}
            />
            <LinkListField
              name="secondaryNavigation"
              title="Secondary navigation"
              description="Links at the foot of the site, in order."
              readOnly={readOnly}
              serverError={listErrors.secondaryNavigation}
            />
          </div>
          <Card title="Social accounts">
            <p className="small muted" style={{ margin: 0 }}>
              A handle or the address of the profile; it is kept as the profile&apos;s address.
            </p>
            <div className="grid-3">
              {NETWORKS.map(({ key, label, placeholder }) => (
                <TextField
                  key={key}
                  id={`social-${key}`}
                  label={label}
                  placeholder={placeholder}
                  field={register(`social.${key}`)}
                  error={formState.errors.social?.[key]?.message}
                />
              ))}
            </div>
            {socialError ? (
              <span className="field-error" role="alert">
                {socialError}
              </span>
            ) : null}
          </Card>
        </fieldset>
        <div className="form-actions" role="group" aria-label="Save the site settings">
          <span className="small muted form-actions-note">
            {readOnly ? 'Your role can read these settings, not change them' : 'Websites read these through the content API'}
          </span>
          <Link to="/dashboard/settings" className="btn btn-secondary">
            {readOnly ? 'Back to settings' : 'Cancel'}
          </Link>
          {readOnly ? null : (
            <button type="submit" className="btn btn-primary" disabled={isLoading || !formState.isDirty}>
              {isLoading ? <Spinner small label="Saving" /> : null}
              Save site settings
            </button>
          )}
        </div>
      </form>
    </FormProvider>
  );
}

/** Settings → Site: what the company's website shows around the posts (title, images, accent
 *  color, its address and post addresses, navigations, social accounts). Admins edit; others read. */
export function SiteSettings() {
  const canEdit = useCan('settings.manage');
  const site = useGetSiteQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <>
      <PageHeader title="Site" description="What your website shows around the posts" search={false} />
      <p>
        <Link to="/dashboard/settings">Back to settings</Link>
      </p>
      <QueryState query={site} boxed loading="Loading the site settings..." error="Could not load the site settings">
        {(data) => <SiteForm key={data.updatedAt ?? ''} site={data} canEdit={canEdit} />}
      </QueryState>
    </>
  );
}

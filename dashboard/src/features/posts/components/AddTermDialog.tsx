import { useState } from 'react';
import { toast } from 'sonner';
import { Dialog } from '@/components/Dialog';
import { TextAreaField, TextField } from '@/components/form';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { slugify } from '@/lib/slug';

/** "Add New" beside a post's categories or tags: name, slug (from the name until edited) and, for
 * a category, a description. */
export function AddTermDialog({
  kind,
  onClose,
  onCreate,
}: {
  kind: 'category' | 'tag';
  onClose: () => void;
  onCreate: (input: { name: string; slug: string; description?: string }) => Promise<void>;
}) {
  const noun = kind === 'category' ? 'Category' : 'Tag';
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const effectiveSlug = slugEdited && slug ? slug : slugify(name);

  async function submit() {
    if (!name.trim()) {
      setError(`${noun} name is required`);
      return;
    }
    setBusy(true);
    try {
      await onCreate({
        name: name.trim(),
        slug: effectiveSlug || slugify(name),
        ...(kind === 'category' && description.trim() ? { description: description.trim() } : {}),
      });
      toast.success(`${noun} created successfully`);
    } catch (err) {
      toastError(err, `Failed to create ${kind}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      title={`Add New ${noun}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={submit} disabled={busy}>
            {busy ? <Spinner small /> : null}
            Add {noun}
          </button>
        </>
      }
    >
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          e.stopPropagation();
          void submit();
        }}
      >
        <TextField
          label="Name"
          id={`new-${kind}-name`}
          error={error ?? undefined}
          autoFocus
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (e.target.value.trim()) setError(null);
          }}
        />
        <TextField
          label="Slug"
          id={`new-${kind}-slug`}
          value={effectiveSlug}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugEdited(true);
          }}
        />
        {kind === 'category' ? (
          <TextAreaField label="Description" id="new-category-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        ) : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

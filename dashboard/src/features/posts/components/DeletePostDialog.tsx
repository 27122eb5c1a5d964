import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useDeletePostMutation, type PostDeleteArgs } from '@/api/posts';
import { useGetLanguagesQuery } from '@/api/translations';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Dialog } from '@/components/Dialog';
import { toastFailure } from '@/components/notify';
import { Spinner } from '@/components/Spinner';
import { errorCode, isApiError, type TranslationRef } from '@/lib/errors';
import { useKind } from '../kinds';
import { deleteErrorMessage } from '../payload';

interface Props {
  postId: string | null;
  onClose: () => void;
  onDeleted: () => void;
  onGone?: () => void;
}

/** What becomes of the translations: `delete`, or the language whose translation is promoted. */
type Choice = 'delete' | `promote:${string}`;

/**
 * Deleting a post: "Are you sure?" first. A post in the company's default language that has
 * translations is refused by the server (409 `translations_exist`, naming them); the dialog then
 * says why, lists them by language and asks what becomes of them: delete them too, or keep them
 * with one language's translation made the main post; the delete is sent again with that choice.
 */
export function DeletePostDialog({ postId, onClose, onDeleted, onGone }: Props) {
  const { noun, api } = useKind();
  const [deletePost, { isLoading }] = useDeletePostMutation();
  const [translations, setTranslations] = useState<TranslationRef[] | null>(null);

  function close() {
    setTranslations(null);
    onClose();
  }

  async function send(args: PostDeleteArgs) {
    try {
      const reply = await deletePost(args).unwrap();
      toast.success(reply?.message || `${capitalised(noun)} deleted successfully`);
      onDeleted();
    } catch (err) {
      if (errorCode(err) === 'translations_exist' && isApiError(err) && err.translations?.length) {
        setTranslations(err.translations);
        return;
      }
      const { text, refresh } = deleteErrorMessage(isApiError(err) ? err.status : undefined, isApiError(err) ? err.message : '', noun);
      toastFailure(err, text);
      if (refresh) onGone?.();
    }
    close();
  }

  if (postId && translations) {
    return (
      <TranslationsStep
        translations={translations}
        busy={isLoading}
        noun={noun}
        onCancel={close}
        onChoose={(choice) =>
          send(
            choice === 'delete'
              ? { id: postId, kind: api, translations: 'delete' }
              : { id: postId, kind: api, promote: choice.slice('promote:'.length) },
          )
        }
      />
    );
  }
  return (
    <ConfirmDialog
      open={!!postId}
      title={`Are you sure you want to delete this ${noun}?`}
      busy={isLoading}
      onCancel={close}
      onConfirm={() => postId && send({ id: postId, kind: api })}
    >
      <p style={{ margin: 0 }}>
        This action cannot be undone. This will permanently delete the {noun} and remove all associated data.
      </p>
    </ConfirmDialog>
  );
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function TranslationsStep({
  translations,
  busy,
  noun,
  onCancel,
  onChoose,
}: {
  translations: TranslationRef[];
  busy: boolean;
  noun: string;
  onCancel: () => void;
  onChoose: (choice: Choice) => void;
}) {
  const id = useId();
  const [choice, setChoice] = useState<Choice | null>(null);
  const languages = useGetLanguagesQuery();
  const known = languages.data?.languages ?? [];
  const nameOf = (code: string) => {
    const name = known.find((l) => l.code === code)?.name;
    return name ? `${name} (${code})` : code;
  };
  const main = languages.data ? nameOf(languages.data.defaultLanguage) : '';
  const options: { value: Choice; label: string }[] = [
    { value: 'delete', label: translations.length === 1 ? 'Delete it too' : 'Delete them too' },
    ...translations.map((t) => ({
      value: `promote:${t.language}` as Choice,
      label: `Keep ${translations.length === 1 ? 'it' : 'them'}: make the ${nameOf(t.language)} translation the main ${noun}`,
    })),
  ];
  return (
    <Dialog
      open
      title={`This ${noun} has translations`}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" onClick={() => choice && onChoose(choice)} disabled={busy || !choice}>
            {busy ? <Spinner small label="Working" /> : null}
            Delete
          </button>
        </>
      }
    >
      <p style={{ marginTop: 0 }} id={`${id}-why`}>
        It is the {main ? `${main} ` : ''}main {noun} of {translations.length === 1 ? 'a translation' : 'translations'}. Say
        what becomes of {translations.length === 1 ? 'it' : 'them'} before it is deleted.
      </p>
      <ul data-testid="translations-to-decide">
        {translations.map((t) => (
          <li key={t.id}>
            <strong>{nameOf(t.language)}</strong> <span className="muted break">/{t.slug}</span>
          </li>
        ))}
      </ul>
      <fieldset className="check-groups" aria-describedby={`${id}-why`}>
        <legend>What becomes of the {translations.length === 1 ? 'translation' : 'translations'}?</legend>
        {options.map((option) => (
          <label key={option.value} className="check" style={{ alignItems: 'flex-start' }}>
            <input
              type="radio"
              name={`${id}-choice`}
              value={option.value}
              checked={choice === option.value}
              onChange={() => setChoice(option.value)}
              style={{ marginTop: 2, flex: 'none' }}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
    </Dialog>
  );
}

import { SubmitButton } from '@/components/form';

/** A two-factor form's save button and Cancel. */
export function FormButtons({ onCancel, ...submit }: Parameters<typeof SubmitButton>[0] & { onCancel: () => void }) {
  return (
    <div className="row" style={{ flexWrap: 'wrap' }}>
      <SubmitButton {...submit} />
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

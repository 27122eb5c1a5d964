import type { CkEditorFieldProps } from '@/components/editor/types';

/** Stand-in for CKEditor in jsdom: a textarea with the same props. */
export default function FakeEditor({ value, onChange, onRequestImage }: CkEditorFieldProps) {
  return (
    <div>
      <textarea aria-label="Rich text" defaultValue={value} onChange={(e) => onChange(e.target.value)} />
      <button type="button" onClick={onRequestImage}>
        Insert image from media library
      </button>
    </div>
  );
}

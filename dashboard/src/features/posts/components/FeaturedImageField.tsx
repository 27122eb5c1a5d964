import { ImagePickerField } from '@/components/media/ImagePickerField';

export interface FeaturedImage {
  id: string;
  url: string;
  alt?: string;
}

interface Props {
  value: FeaturedImage | null;
  onChange: (value: FeaturedImage | null) => void;
  error?: string;
}

/** The post's featured image: chosen from the media library (a post's image is always the library's). */
export function FeaturedImageField({ value, onChange, error }: Props) {
  return (
    <ImagePickerField
      label="Featured Image"
      pickLabel="Select Featured Image"
      value={value}
      onChange={(picked) => onChange(picked?.id ? { id: picked.id, url: picked.url, alt: picked.alt } : null)}
      error={error}
    />
  );
}

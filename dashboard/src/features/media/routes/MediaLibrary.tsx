import { useState } from 'react';
import { Upload } from 'lucide-react';
import type { Media } from '@/api/media';
import { useCan } from '@/api/session';
import { MediaGrid } from '@/components/media/MediaGrid';
import { UploadPanel } from '@/components/media/UploadPanel';
import { PageHeader } from '@/components/PageHeader';
import { MediaDetailsDialog } from '../components/MediaDetailsDialog';

export function MediaLibrary() {
  const [uploading, setUploading] = useState(false);
  const [selected, setSelected] = useState<Media | null>(null);
  const canUpload = useCan('media.upload');
  return (
    <>
      <PageHeader
        title="Media Library"
        search={false}
        description={canUpload ? 'Upload and manage your images' : 'Browse your images'}
        action={canUpload ? { label: 'Upload New', icon: <Upload size={16} />, onClick: () => setUploading((u) => !u) } : undefined}
      />
      {uploading && canUpload ? (
        <section className="card card-body">
          <UploadPanel />
        </section>
      ) : null}
      <section className="card card-body">
        <MediaGrid selectedId={selected?.id} onSelect={setSelected} />
      </section>
      <MediaDetailsDialog media={selected} onClose={() => setSelected(null)} />
    </>
  );
}

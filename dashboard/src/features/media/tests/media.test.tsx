import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { mediaDeleteError } from '@/api/media';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const item = (i: number) => ({
  id: `m${i}`,
  fileName: `photo-${i}.png`,
  fileType: 'image/png',
  fileSize: 2048 * i,
  altText: `photo-${i}.png`,
  link: `http://demo.localhost/media/photo-${i}.png`,
  cdnUrl: `http://demo.localhost/media/photo-${i}.png`,
  renditions: { thumbnail: `http://demo.localhost/media/photo-${i}-t.png` },
  uploadedBy: { username: 'alice' },
  uploadedAt: '2024-05-01T10:00:00Z',
});

function mediaApi(total: number) {
  const calls: URLSearchParams[] = [];
  server.use(
    http.get('*/api/media', ({ request }) => {
      const q = new URL(request.url).searchParams;
      calls.push(q);
      const page = Number(q.get('page'));
      const limit = Number(q.get('limit'));
      const all = Array.from({ length: total }, (_, i) => item(i + 1)).filter((m) => !q.get('search') || m.fileName.includes(q.get('search')!));
      return HttpResponse.json({
        success: true,
        media: all.slice((page - 1) * limit, page * limit),
        page,
        limit,
        totalItems: all.length,
        totalPages: Math.max(1, Math.ceil(all.length / limit)),
      });
    }),
  );
  return calls;
}

const png = (name = 'new.png', size = 100) => new File([new Uint8Array(size)], name, { type: 'image/png' });

describe('media library', () => {
  it('shows 12 thumbnails a page with Previous/Next and "Page x of y"; search asks the server', async () => {
    const calls = mediaApi(30);
    const user = userEvent.setup();
    renderApp('/dashboard/media', { session: signedIn() });
    expect(await screen.findByRole('button', { name: 'photo-1.png' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^photo-/ })).toHaveLength(12);
    expect(calls[0].get('limit')).toBe('12');
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Previous/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'photo-13.png' })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search media' }), 'photo-3');
    await waitFor(() => expect(calls.at(-1)!.get('search')).toBe('photo-3'));
    expect(calls.at(-1)!.get('page')).toBe('1');
  });

  it('checks type and size before sending', async () => {
    mediaApi(0);
    let sent = 0;
    server.use(http.post('*/api/media/upload', () => {
      sent += 1;
      return HttpResponse.json({ success: true, media: item(99) }, { status: 201 });
    }));
    const user = userEvent.setup({ applyAccept: false });
    renderApp('/dashboard/media', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Upload New' }));
    const input = screen.getByTestId('media-file-input');
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findAllByText('Only image files are supported')).not.toHaveLength(0);
    await user.upload(input, png('huge.png', 5 * 1024 * 1024 + 1));
    expect(await screen.findAllByText('File too large. Maximum size is 5 MB')).not.toHaveLength(0);
    expect(sent).toBe(0);
  });

  it('uploads with progress from 10 rising by 10 every 300 ms, 100 at the end; drag and drop works too', async () => {
    mediaApi(0);
    let form: FormData | null = null;
    let finish = () => {};
    const released = new Promise<void>((resolve) => {
      finish = resolve;
    });
    server.use(
      http.post('*/api/media/upload', async ({ request }) => {
        form = await request.formData();
        await released;
        return HttpResponse.json({ success: true, message: 'File uploaded successfully', media: item(50) }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/media', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Upload New' }));
    fireEvent.drop(screen.getByRole('button', { name: 'Upload image' }), { dataTransfer: { files: [png('dropped.png')] } });
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress of dropped.png' });
    expect(bar).toHaveAttribute('aria-valuenow', '10');
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(30));
    // While the server has not answered, progress stops at 90.
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '90'), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 400));
    expect(bar).toHaveAttribute('aria-valuenow', '90');
    finish();
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '100'));
    expect(await screen.findByText('File uploaded successfully')).toBeInTheDocument();
    expect(form!.get('fileName')).toBe('dropped.png');
    expect(form!.get('fileType')).toBe('image/png');
    expect(form!.get('fileSize')).toBe('100');
    expect(form!.get('altText')).toBe('dropped.png');
    // jsdom's File does not survive the trip into Node's FormData (the e2e run sends a real
    // file); here only its presence is checked.
    expect(form!.has('file')).toBe(true);
  });

  it('uploads a dropped set of files, each with its own progress and outcome', async () => {
    mediaApi(0);
    const names: string[] = [];
    server.use(
      http.post('*/api/media/upload', async ({ request }) => {
        const name = String((await request.formData()).get('fileName'));
        names.push(name);
        await new Promise((r) => setTimeout(r, 50));
        if (name === 'b.png') return HttpResponse.json({ success: false, message: 'Storage is full', error: 'server_error' }, { status: 400 });
        return HttpResponse.json({ success: true, message: 'File uploaded successfully', media: item(60 + names.length) }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/media', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Upload New' }));
    fireEvent.drop(screen.getByRole('button', { name: 'Upload image' }), {
      dataTransfer: { files: [png('a.png'), png('b.png'), png('c.png'), new File(['x'], 'notes.txt', { type: 'text/plain' })] },
    });
    for (const name of ['a.png', 'b.png', 'c.png']) {
      expect(await screen.findByRole('progressbar', { name: `Upload progress of ${name}` })).toBeInTheDocument();
    }
    expect(screen.queryByRole('progressbar', { name: /notes\.txt/ })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Upload progress of c.png' })).toHaveAttribute('aria-valuenow', '100'));
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Upload progress of a.png' })).toHaveAttribute('aria-valuenow', '100'));
    expect(within(screen.getByRole('list', { name: 'Uploads' })).getByText('Storage is full')).toBeInTheDocument();
    expect(await screen.findByText('2 of 3 files uploaded')).toBeInTheDocument();
    expect(names.sort()).toEqual(['a.png', 'b.png', 'c.png']);
  });

  it('details dialog: name, type, size, uploader, URL, open, download; delete refusal message', async () => {
    mediaApi(2);
    server.use(
      http.delete('*/api/media/m2', () =>
        HttpResponse.json(
          {
            success: false,
            message: 'Cannot delete media: it is currently used as featured image in 3 posts',
            error: 'conflict',
            code: 'media_in_use',
          },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/media', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'photo-2.png' }));
    const dialog = screen.getByRole('dialog', { name: 'Media Details' });
    expect(dialog).toHaveTextContent('photo-2.png');
    expect(dialog).toHaveTextContent('image/png');
    expect(dialog).toHaveTextContent('4.0 KB');
    expect(dialog).toHaveTextContent('alice');
    expect(within(dialog).getByLabelText('URL')).toHaveValue('http://demo.localhost/media/photo-2.png');
    expect(within(dialog).getByRole('link', { name: /Open in New Tab/ })).toHaveAttribute('target', '_blank');
    expect(within(dialog).getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'photo-2.png');
    await user.click(within(dialog).getByRole('button', { name: /Delete/ }));
    await user.click(within(dialog).getByRole('button', { name: /Confirm Delete/ }));
    expect(
      await screen.findByText('Cannot delete media. It is currently used as featured image in 3 posts. Please update those posts first.'),
    ).toBeInTheDocument();
  });

  it('maps delete errors', () => {
    const refusal = (message: string, code?: 'media_in_use') => ({ status: 409, message, kind: 'conflict', code });
    expect(mediaDeleteError(refusal('currently used in posts (2 posts)', 'media_in_use'))).toBe(
      'Cannot delete media. It is currently used as featured image in 2 posts. Please update those posts first.',
    );
    expect(mediaDeleteError(refusal('Storage offline'))).toBe('Storage offline');
    expect(mediaDeleteError(refusal('currently used in posts (2 posts)'))).toBe('currently used in posts (2 posts)');
    expect(mediaDeleteError(refusal(''))).toBe('Failed to delete media');
  });
});

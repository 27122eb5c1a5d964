import { render, waitFor } from '@testing-library/react';
import { ClassicEditor } from 'ckeditor5';
import { afterEach, describe, expect, it } from 'vitest';
import CkEditorField from '../editor/CkEditorField';
import { editorConfig } from '../editor/config';
import type { EditorHandle } from '../editor/types';

// The post editor keeps what the server's sanitiser keeps (apps/core/html.py), so that an imported
// post's media survive an edit and a save in the dashboard.

const YOUTUBE = '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315" title="A video" allowfullscreen=""></iframe>';
const AUDIO = '<audio controls=""><source src="/media/t_acme/podcast.mp3" type="audio/mpeg"></audio>';

let editors: ClassicEditor[] = [];

function fragment(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/** Whether `data` holds an element equal to the one `html` is (the same attributes, in any order,
 *  and the same children). */
function keeps(data: string, html: string): boolean {
  const wanted = fragment(html).firstElementChild as Element;
  return [...fragment(data).querySelectorAll(wanted.localName)].some((found) => found.isEqualNode(wanted));
}

async function roundTrip(html: string): Promise<string> {
  const element = document.createElement('div');
  document.body.appendChild(element);
  // The toolbar's two React buttons are CkEditorField's: not asked for here.
  const editor = await ClassicEditor.create(element, { ...editorConfig(html), toolbar: [] });
  editors.push(editor);
  return editor.getData();
}

afterEach(async () => {
  await Promise.all(editors.map((editor) => editor.destroy()));
  editors = [];
});

describe('the post editor keeps what the sanitiser keeps', () => {
  it('a YouTube iframe and an audio element come back from getData as they went in', async () => {
    const data = await roundTrip(`<p>Listen:</p>${AUDIO}<p>Watch:</p>${YOUTUBE}`);
    expect(keeps(data, YOUTUBE)).toBe(true);
    expect(keeps(data, AUDIO)).toBe(true);
    expect(data).toContain('<p>Listen:</p>');
  });

  it('the embeds of Vimeo, SoundCloud, Spotify and X, and a video with its poster and source', async () => {
    const embeds = [
      'https://player.vimeo.com/video/76979871',
      'https://w.soundcloud.com/player/?url=https%3A//api.soundcloud.com/tracks/293',
      'https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC',
      'https://platform.twitter.com/embed/Tweet.html?id=20',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=30',
    ];
    const video = '<video controls="" poster="/media/t_acme/poster.jpg" width="640"><source src="https://cdn.example/clip.mp4" type="video/mp4"></video>';
    const data = await roundTrip(embeds.map((src) => `<iframe src="${src}"></iframe>`).join('') + video);
    for (const src of embeds) expect(keeps(data, `<iframe src="${src}"></iframe>`), src).toBe(true);
    expect(keeps(data, video)).toBe(true);
  });

  it("cite, a figure with its caption, an image's title", async () => {
    const data = await roundTrip(
      '<p>As <cite>The Book</cite> says.</p><figure><img src="/media/t_acme/a.jpg" alt="A harbour"><figcaption>The harbour at dawn</figcaption></figure>',
    );
    expect(data).toContain('<cite>The Book</cite>');
    expect(data).toMatch(/<figure>.*<img src="\/media\/t_acme\/a\.jpg" alt="A harbour">.*<figcaption>The harbour at dawn<\/figcaption><\/figure>/);
    const titled = await roundTrip('<p><img src="/media/t_acme/b.jpg" alt="A bell" title="The bell"></p>');
    expect(keeps(titled, '<img src="/media/t_acme/b.jpg" alt="A bell" title="The bell">')).toBe(true);
  });

  it("the sanitiser's other elements: block quotes, headings 4 to 6, code, marks, tables, a link's title and target", async () => {
    const parts = [
      '<blockquote><p>Quoted words</p></blockquote>',
      '<h4>Four</h4>',
      '<h5>Five</h5>',
      '<h6>Six</h6>',
      '<pre><code>let x = 1;</code></pre>',
      '<hr>',
      '<div><p>In a box</p></div>',
      '<table><caption>Tides</caption><thead><tr><th scope="col"><p>Day</p></th><th><p>High</p></th></tr></thead>' +
        '<tbody><tr><td colspan="2"><p>Calm</p></td></tr></tbody></table>',
    ];
    const inline =
      '<p>Use <code>x</code>, <s>old</s>, <del>gone</del>, H<sub>2</sub>O, x<sup>2</sup>, <mark>this</mark> and ' +
      '<a href="https://old.example/" title="The old site" target="_blank">a link</a>.</p>';
    const data = await roundTrip(parts.join('') + inline);
    for (const part of parts) expect(keeps(data, part), part).toBe(true);
    expect(keeps(data, inline)).toBe(true);
  });

  it('leaves out what the sanitiser leaves out: other iframe hosts, autoplay, scripts and handlers, other address schemes', async () => {
    const data = await roundTrip(
      '<p>Before</p><iframe src="https://ads.example/embed/1"></iframe><iframe src="http://www.youtube.com/embed/abc"></iframe>' +
        '<iframe src="https://www.youtube.com/watch?v=abc"></iframe>' +
        '<audio src="javascript:alert(1)" autoplay="" controls="" onplay="alert(1)"></audio>' +
        '<video src="//evil.example/v.mp4" controls=""></video><script>alert(1)</script><p>After</p>',
    );
    expect(data).not.toMatch(/ads\.example|<iframe|javascript:|autoplay|onplay|evil\.example|<script|alert/);
    expect(data).toContain('<audio controls=""></audio>');
    expect(data).toContain('<p>Before</p>');
    expect(data).toContain('<p>After</p>');
  });

  it('the form control itself (CkEditorField) keeps them in what it hands the form', async () => {
    let handle: EditorHandle | null = null;
    const changes: string[] = [];
    render(
      <CkEditorField
        value={`<p>Imported</p>${YOUTUBE}${AUDIO}`}
        onChange={(html) => changes.push(html)}
        onReady={(editor) => {
          handle = editor;
        }}
        onRequestImage={() => {}}
        onCopyHtml={() => {}}
        ariaLabel="Content"
      />,
    );
    await waitFor(() => expect(handle).not.toBeNull(), { timeout: 20_000 });
    const data = (handle as unknown as EditorHandle).getData();
    expect(keeps(data, YOUTUBE)).toBe(true);
    expect(keeps(data, AUDIO)).toBe(true);
  });
});

import {
  Alignment,
  Bold,
  Essentials,
  FontColor,
  GeneralHtmlSupport,
  Heading,
  Image,
  ImageStyle,
  ImageToolbar,
  Italic,
  Link,
  List,
  Paragraph,
  Plugin,
  Underline,
  type EditorConfig,
  type GeneralHtmlSupportConfig,
} from 'ckeditor5';
import { TEXT_COLORS, TOOLBAR } from './types';

// What the server's sanitiser keeps beyond the toolbar's own formats (apps/core/html.py), so that
// content written elsewhere (an import, the API) survives an edit here: audio and video with their
// sources, cite, figures with captions, iframes of exactly the embed addresses it allows, and its
// other elements (block quotes, headings 4 to 6, code, tables...). The patterns are the
// sanitiser's; anything else is left out here as it would be there. Styles stay the toolbar's
// (alignment, text colour).

const QUERY = String.raw`(?:\?[A-Za-z0-9_=&%.,;:/+-]*)?`;
/** An iframe's address: https, exactly these hosts' embed addresses (YouTube, Vimeo, SoundCloud,
 *  Spotify, X/Twitter). */
export const EMBED_SOURCE = new RegExp(
  String.raw`^https://(?:` +
    String.raw`www\.youtube(?:-nocookie)?\.com/embed/[A-Za-z0-9_-]{1,64}` +
    String.raw`|player\.vimeo\.com/video/[0-9]{1,20}` +
    String.raw`|w\.soundcloud\.com/player/` +
    String.raw`|open\.spotify\.com/embed/(?:track|album|playlist|episode|show|artist)/[A-Za-z0-9]{1,64}` +
    String.raw`|platform\.(?:twitter|x)\.com/embed/Tweet\.html` +
    `)${QUERY}$`,
);
/** Audio, video and source addresses (and a video's poster): http(s) or a path of the site. */
const MEDIA_SOURCE = /^(?:https?:\/\/|\/(?!\/))[^\s\\]*$/i;
const DIMENSION = /^\d{1,5}%?$/;

export const HTML_SUPPORT: GeneralHtmlSupportConfig = {
  allow: [
    {
      name: 'iframe',
      attributes: {
        src: EMBED_SOURCE,
        width: DIMENSION,
        height: DIMENSION,
        title: true,
        allowfullscreen: true,
        frameborder: /^[01]$/,
        allow: true,
      },
    },
    { name: 'audio', attributes: { src: MEDIA_SOURCE, controls: true, loop: true, muted: true, preload: true } },
    {
      name: 'video',
      attributes: {
        src: MEDIA_SOURCE,
        poster: MEDIA_SOURCE,
        controls: true,
        loop: true,
        muted: true,
        preload: true,
        playsinline: true,
        width: DIMENSION,
        height: DIMENSION,
      },
    },
    { name: 'source', attributes: { src: MEDIA_SOURCE, type: true } },
    { name: 'cite' },
    { name: 'figure' },
    { name: 'figcaption' },
    // The rest of the sanitiser's elements, which the toolbar does not make: kept as they come.
    { name: /^(?:blockquote|h4|h5|h6|pre|code|s|del|sub|sup|mark|hr|div)$/ },
    { name: /^(?:table|caption|thead|tbody|tfoot|tr|colgroup)$/ },
    { name: /^(?:td|th)$/, attributes: { colspan: /^\d{1,4}$/, rowspan: /^\d{1,4}$/ } },
    { name: 'th', attributes: { scope: /^(?:row|col|rowgroup|colgroup)$/ } },
    { name: 'col', attributes: { span: /^\d{1,4}$/ } },
    { name: 'a', attributes: { title: true, target: /^_(?:blank|self)$/ } },
    { name: 'img', attributes: { title: true } },
  ],
  // In the editing view only (never in the saved HTML): the embeds may run their player.
  htmlIframeSandbox: ['allow-scripts', 'allow-same-origin', 'allow-presentation'],
};

/** The elements the sanitiser removes with their content: left out here whole too, not kept as text. */
const REMOVED_WITH_CONTENT = [
  'script', 'style', 'noscript', 'template', 'xmp', 'noembed', 'noframes', 'object', 'embed', 'applet', 'svg', 'math',
  'title', 'textarea', 'select',
];

/** What the sanitiser takes out whole, taken out whole on the way in: an iframe of any other
 *  address (not kept empty) and the elements above (not kept as their text). */
export class LeftOutWhole extends Plugin {
  static get pluginName() {
    return 'LeftOutWhole' as const;
  }

  init() {
    this.editor.conversion.for('upcast').add((dispatcher) => {
      dispatcher.on(
        'element:iframe',
        (_event, data, api) => {
          const src = data.viewItem.getAttribute('src');
          if (typeof src === 'string' && EMBED_SOURCE.test(src.trim())) return;
          api.consumable.consume(data.viewItem, { name: true });
        },
        { priority: 'highest' },
      );
      for (const name of REMOVED_WITH_CONTENT) {
        dispatcher.on(
          `element:${name}`,
          (event, data, api) => {
            api.consumable.consume(data.viewItem, { name: true });
            event.stop();
          },
          { priority: 'highest' },
        );
      }
    });
  }
}

/** The editor's formats: what it writes and what it keeps of the HTML it is given. */
export const CONTENT_PLUGINS = [
  Essentials,
  Paragraph,
  Bold,
  Italic,
  Underline,
  FontColor,
  Heading,
  Alignment,
  List,
  Link,
  Image,
  ImageToolbar,
  ImageStyle,
  GeneralHtmlSupport,
  LeftOutWhole,
];

/** The configuration of the post editor without its React callbacks (CkEditorField adds them). */
export function editorConfig(initialData: string, extraPlugins: EditorConfig['plugins'] = []): EditorConfig {
  return {
    licenseKey: 'GPL',
    plugins: [...CONTENT_PLUGINS, ...(extraPlugins ?? [])],
    toolbar: { items: TOOLBAR, shouldNotGroupWhenFull: false },
    fontColor: { colors: TEXT_COLORS, columns: 6, colorPicker: false },
    heading: {
      options: [
        { model: 'paragraph', title: 'Paragraph', class: 'ck-heading_paragraph' },
        { model: 'heading1', view: 'h1', title: 'Heading 1', class: 'ck-heading_heading1' },
        { model: 'heading2', view: 'h2', title: 'Heading 2', class: 'ck-heading_heading2' },
        { model: 'heading3', view: 'h3', title: 'Heading 3', class: 'ck-heading_heading3' },
      ],
    },
    alignment: { options: ['left', 'center', 'right'] },
    link: { defaultProtocol: 'https://' },
    image: { toolbar: ['imageTextAlternative'] },
    htmlSupport: HTML_SUPPORT,
    initialData,
  };
}

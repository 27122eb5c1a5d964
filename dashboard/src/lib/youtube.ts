const ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * Extract a YouTube video id from a watch, youtu.be, embed or /v/ URL, or accept a bare
 * 11-character id. Anything else gives an empty string (the field is cleared).
 */
export function parseYouTubeId(input: string): string {
  const value = input.trim();
  if (!value) return '';
  if (ID.test(value)) return value;
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return '';
  }
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.|music\.)/, '');
  let candidate = '';
  if (host === 'youtu.be') {
    candidate = url.pathname.split('/')[1] ?? '';
  } else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'watch') candidate = url.searchParams.get('v') ?? '';
    else if (parts[0] === 'embed' || parts[0] === 'v') candidate = parts[1] ?? '';
  }
  return ID.test(candidate) ? candidate : '';
}

export function youTubeThumbnail(id: string): string {
  return `https://img.youtube.com/vi/${id}/mqdefault.jpg`;
}

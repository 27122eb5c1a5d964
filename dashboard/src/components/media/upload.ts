export const MAX_UPLOAD_BYTES = 1024 * 1024 * 5;

/** The client-side check before sending a file: image only, at most 5 MB. */
export function validateUpload(file: File, maxBytes: number = MAX_UPLOAD_BYTES): string | null {
  if (!file.type.startsWith('image/')) return 'Only image files are supported';
  if (file.size > maxBytes) return `File too large. Maximum size is ${Math.round(maxBytes / (1024 * 1024))} MB`;
  return null;
}

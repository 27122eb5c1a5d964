import { toast } from 'sonner';

/** Copy text with the spec's toasts; resolves to whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Copied to clipboard!');
    return true;
  } catch {
    toast.error('Failed to copy text');
    return false;
  }
}

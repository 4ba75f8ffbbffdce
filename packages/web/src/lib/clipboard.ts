/**
 * Puts text on the clipboard. The async Clipboard API needs a secure context and, in some
 * browsers, a permission; where it refuses, a hidden textarea and the older copy command still
 * work inside a click handler.
 *
 * @throws Error when neither way copied the text.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall through to the older way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.inset = '0 auto auto 0';
  area.style.opacity = '0';
  document.body.append(area);
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  try {
    area.select();
    // Deprecated but still the only fallback browsers offer for this.
    if (!document.execCommand('copy')) throw new Error('The browser did not allow copying.');
  } finally {
    area.remove();
    active?.focus();
  }
}

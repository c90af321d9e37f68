/** Copies text with the async clipboard API (the inspector always runs in a secure context). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    throw new Error('Copying is not allowed here. Select the text and copy it by hand.');
  }
}

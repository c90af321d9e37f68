/**
 * In-page side of upload_file (src/core/browser/input/upload.ts): whether the element is a file
 * input, which takes the files directly.
 */

/** Called on the element: a file input's flags; all false for any other element. */
export function fileInputInfo(this: Node): {file: boolean; multiple: boolean; disabled: boolean} {
  if (this instanceof HTMLInputElement && this.type === 'file') {
    return {file: true, multiple: this.multiple, disabled: this.disabled};
  }
  return {file: false, multiple: false, disabled: false};
}

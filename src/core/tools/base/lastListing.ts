/**
 * The last rendering of a list tool per collector. A collector's log version changes with
 * anything a listing could show, so an agent polling an idle page gets the same text back
 * without rendering 1,000 lines again.
 */
export class LastListing<Owner extends object> {
  readonly #last = new WeakMap<Owner, {key: string; text: string}>();

  /** `inputs`: everything the text depends on (log version, options, page URL). */
  text(owner: Owner, inputs: readonly unknown[], render: () => string): string {
    const key = JSON.stringify(inputs);
    const cached = this.#last.get(owner);
    if (cached?.key === key) {
      return cached.text;
    }
    const text = render();
    this.#last.set(owner, {key, text});
    return text;
  }
}

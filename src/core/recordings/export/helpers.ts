/**
 * Helper functions an exported test may need, written once at the top of the file when a step
 * uses them: how a fill, an upload, a value or an active descendant is decided when only the
 * page can tell (a <select> or a field, a form field or an ARIA widget).
 */
import type {HelperName} from './context.js';

const LOCATOR_TYPE = "import type { Locator } from '@playwright/test';";

export const HELPERS: Record<HelperName, {imports: string[]; lines: string[]}> = {
  fillField: {
    imports: [LOCATOR_TYPE],
    lines: [
      '/** fill as the engine did: a <select> chooses the option with this label; a field is filled. */',
      'async function fillField(field: Locator, value: string): Promise<void> {',
      '  if (await field.evaluate(element => element instanceof HTMLSelectElement)) {',
      '    await field.selectOption({ label: value });',
      '  } else {',
      '    await field.fill(value);',
      '  }',
      '}',
    ],
  },
  uploadFiles: {
    imports: [LOCATOR_TYPE],
    lines: [
      '/** The files for a file input, or for the file chooser the element opens when clicked. */',
      'async function uploadFiles(target: Locator, files: string[]): Promise<void> {',
      "  if (await target.evaluate(element => element instanceof HTMLInputElement && element.type === 'file')) {",
      '    await target.setInputFiles(files);',
      '  } else {',
      "    const chooser = target.page().waitForEvent('filechooser');",
      '    await target.click();',
      '    await (await chooser).setFiles(files);',
      '  }',
      '}',
    ],
  },
  expectValue: {
    imports: [LOCATOR_TYPE],
    lines: [
      '/**',
      ' * The value the agent saw: the aria-valuenow of a slider or spin button, the chosen option of',
      ' * a <select>, the value of a field or progress bar, else the text (a contenteditable).',
      ' */',
      'async function expectValue(control: Locator, value: string, message: string): Promise<void> {',
      '  const kind = await control.evaluate(element => {',
      "    if (element.hasAttribute('aria-valuenow')) return 'range';",
      "    if (element instanceof HTMLSelectElement) return 'select';",
      "    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return 'field';",
      "    return element instanceof HTMLProgressElement ? 'progress' : 'text';",
      '  });',
      "  if (kind === 'range') {",
      "    await expect(control, message).toHaveAttribute('aria-valuenow', value);",
      "  } else if (kind === 'select') {",
      "    await expect(control.locator('option:checked'), message).toHaveText(value);",
      "  } else if (kind === 'field') {",
      '    await expect(control, message).toHaveValue(value);',
      "  } else if (kind === 'progress') {",
      "    await expect(control, message).toHaveJSProperty('value', Number(value));",
      '  } else {',
      '    await expect(control, message).toHaveText(value);',
      '  }',
      '}',
    ],
  },
  expectActiveDescendant: {
    imports: [LOCATOR_TYPE],
    lines: [
      '/** The element is the one its list, grid or combobox points at with aria-activedescendant. */',
      'async function expectActiveDescendant(item: Locator, message: string): Promise<void> {',
      '  const isActive = (): Promise<boolean> =>',
      '    item.evaluate(element => {',
      '      const root = element.getRootNode();',
      "      if (element.id === '' || !(root instanceof Document || root instanceof ShadowRoot)) return false;",
      '      return root.querySelector(`[aria-activedescendant="${CSS.escape(element.id)}"]`) !== null;',
      '    });',
      '  await expect.poll(isActive, { message }).toBe(true);',
      '}',
    ],
  },
};

/**
 * Role-based locators for recorded elements: `getByRole(role, {name, exact})` where Chromium's
 * role is an ARIA role Playwright knows, `getByText` for text and generic nodes, `getByLabel` for
 * unnamed-role form fields; never a uid. `nth` picks among same-named nodes as the recording did.
 */
import type {RecordedElement} from '../../shared/protocol.js';
import {jsString} from './exportLiterals.js';

/** The ARIA roles Playwright's getByRole accepts. */
const ARIA_ROLES = new Set(
  (
    'alert alertdialog application article banner blockquote button caption cell checkbox code ' +
    'columnheader combobox complementary contentinfo definition deletion dialog directory document ' +
    'emphasis feed figure form generic grid gridcell group heading img insertion link list listbox ' +
    'listitem log main marquee math meter menu menubar menuitem menuitemcheckbox menuitemradio ' +
    'navigation none note option paragraph presentation progressbar radio radiogroup region row ' +
    'rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong ' +
    'subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar ' +
    'tooltip tree treegrid treeitem'
  ).split(' '),
);

/** Chromium's own role names → the ARIA role Playwright computes for the same element. */
const CHROMIUM_ROLES: Record<string, string> = {
  image: 'img',
  DescriptionListTerm: 'term',
  DescriptionListDetail: 'definition',
  MenuListPopup: 'listbox',
  MenuListOption: 'option',
  Section: 'region',
  RootWebArea: 'document',
};

/** Roles better found by their text than by role (Chromium-only or nameless in ARIA). */
const TEXT_ROLES = new Set(['StaticText', 'LabelText', 'ListMarker', 'generic', 'paragraph']);

export function locatorFor(pageVar: string, element: RecordedElement): string {
  const pick = element.nth > 0 ? `.nth(${element.nth})` : '.first()';
  const name = element.name;
  const role = Object.hasOwn(CHROMIUM_ROLES, element.role)
    ? (CHROMIUM_ROLES[element.role] ?? element.role)
    : element.role;
  if (TEXT_ROLES.has(element.role) && name !== '') {
    return `${pageVar}.getByText(${jsString(name)}, { exact: true })${pick}`;
  }
  if (ARIA_ROLES.has(role) && role !== 'generic') {
    const options = name === '' ? '' : `, { name: ${jsString(name)}, exact: true }`;
    return `${pageVar}.getByRole(${jsString(role)}${options})${pick}`;
  }
  if (name !== '') {
    return `${pageVar}.getByLabel(${jsString(name)}, { exact: true }).or(${pageVar}.getByText(${jsString(name)}, { exact: true }))${pick}`;
  }
  return '';
}

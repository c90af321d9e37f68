/**
 * Role-based locators for recorded elements: `getByRole(role, {name, exact})` where Chromium's
 * role is an ARIA role Playwright knows, `getByText` for text and generic nodes, `getByLabel` for
 * unnamed-role form fields; never a uid. `nth` picks among same-named nodes of the element's
 * document as the recording did. Elements inside iframes are found through the chain of frames
 * above them (`contentFrame()` of each iframe, by its name or its place), same-site or not.
 */
import {jsString} from './literals.js';
import type {FrameStep} from './snapshot.js';

/** What a locator needs of an element: role, name and which of the same-named it is. */
export interface LocatedElement {
  role: string;
  name: string;
  nth: number;
}

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

function pick(nth: number): string {
  return nth > 0 ? `.nth(${nth})` : '.first()';
}

/** The ARIA role Playwright's getByRole takes for a Chromium role, if there is one. */
export function ariaRoleOf(chromiumRole: string): string | undefined {
  const role = Object.hasOwn(CHROMIUM_ROLES, chromiumRole)
    ? (CHROMIUM_ROLES[chromiumRole] ?? chromiumRole)
    : chromiumRole;
  return ARIA_ROLES.has(role) && role !== 'generic' ? role : undefined;
}

/** A text node, or a node better found by its text than by its role. */
export function foundByText(chromiumRole: string): boolean {
  return TEXT_ROLES.has(chromiumRole);
}

/** The frame of one iframe in `scope` (a page or frame): by its name (title), else its place. */
export function frameLocator(scope: string, frame: FrameStep): string {
  const iframe =
    frame.name === ''
      ? `${scope}.locator('iframe').nth(${frame.index})`
      : `${scope}.locator('iframe').and(${scope}.getByTitle(${jsString(frame.name)}, { exact: true }).or(${scope}.getByLabel(${jsString(frame.name)}, { exact: true })))${pick(frame.nth)}`;
  return `${iframe}.contentFrame()`;
}

/** A locator of the element in `scope` (a page or frame expression); '' when it has no handle. */
export function locatorFor(scope: string, element: LocatedElement): string {
  const {name} = element;
  if (TEXT_ROLES.has(element.role) && name !== '') {
    return `${scope}.getByText(${jsString(name)}, { exact: true })${pick(element.nth)}`;
  }
  const role = ariaRoleOf(element.role);
  if (role !== undefined) {
    const options = name === '' ? '' : `, { name: ${jsString(name)}, exact: true }`;
    return `${scope}.getByRole(${jsString(role)}${options})${pick(element.nth)}`;
  }
  if (name !== '') {
    return `${scope}.getByLabel(${jsString(name)}, { exact: true }).or(${scope}.getByText(${jsString(name)}, { exact: true }))${pick(element.nth)}`;
  }
  return '';
}

/**
 * In-page side of the WebMCP authoring lint's form facts (src/core/webmcp/formFacts.ts): the
 * main frame's declarative tool forms (`<form toolname>`), bounded in count and text. The page's
 * own scripts could have replaced the DOM methods, so the engine checks the answer.
 */

/** One `<form toolname>`: its tool name, whether it is described, its named fields. */
export interface ToolFormFacts {
  toolName: string;
  hasDescription: boolean;
  fields: {name: string; described: boolean}[];
}

/** The value as text, at most `limit` characters (nullish: empty). */
function boundedText(value: unknown, limit: number): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a custom control's name may be any value
  return String(value ?? '').slice(0, limit);
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value;
}

/** An element, of this realm or another (a node adopted from a frame keeps its own prototypes). */
function isElementNode(value: unknown): value is Element {
  return (
    typeof value === 'object' &&
    value !== null &&
    'nodeType' in value &&
    value.nodeType === Node.ELEMENT_NODE
  );
}

/**
 * The form's controls: `form.elements` read as the page has it (a control named "elements"
 * shadows it; then, when that is not a list, reading the forms fails as a whole).
 */
function formControls(form: Element): Element[] {
  const controls: unknown = Reflect.get(form, 'elements');
  if (!isIterable(controls)) {
    throw new TypeError('form.elements is not iterable');
  }
  return [...controls].filter(isElementNode);
}

/** A named form field that is not a button (a parameter of the form's tool). */
function isToolField(element: Element): boolean {
  const name: unknown = Reflect.get(element, 'name');
  const type: unknown = Reflect.get(element, 'type');
  return Boolean(name) && type !== 'submit' && type !== 'button';
}

/** At most `maxForms` forms, `maxFields` fields each, names cut at `nameLimit` characters. */
export function readDeclarativeForms(
  maxForms: number,
  maxFields: number,
  nameLimit: number,
): ToolFormFacts[] {
  return [...document.querySelectorAll('form[toolname]')].slice(0, maxForms).map(form => ({
    toolName: boundedText(form.getAttribute('toolname'), nameLimit),
    hasDescription: (form.getAttribute('tooldescription') ?? '').trim() !== '',
    fields: formControls(form)
      .filter(isToolField)
      .slice(0, maxFields)
      .map(element => ({
        name: boundedText(Reflect.get(element, 'name'), nameLimit),
        described: (element.getAttribute('toolparamdescription') ?? '').trim() !== '',
      })),
  }));
}

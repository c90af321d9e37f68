/**
 * DevTools Issues (CDP Audits.issueAdded) as short, readable console entries. Issues of the same
 * kind (code plus its reason) are aggregated into one entry with a count, as the DevTools Issues
 * panel does. Titles and descriptions are our own short wording; kinds without one get a title
 * derived from the code, so nothing is hidden.
 */

interface IssueText {
  title: string;
  description: string;
}

const KNOWN: Record<string, IssueText> = {
  QuirksModeIssue: {
    title: 'Page layout may be unexpected due to Quirks Mode',
    description:
      'A document on this page has no <!DOCTYPE html>, so it renders in Quirks Mode with legacy layout rules. Add the doctype to render it in standards mode.',
  },
  'GenericIssue:FormEmptyIdAndNameAttributesForInputError': {
    title: 'A form field element should have an id or name attribute',
    description:
      'A form field has neither an id nor a name attribute, which can stop autofill from working. Give each field a unique id or name.',
  },
  'GenericIssue:FormLabelForNameError': {
    title: 'Incorrect use of <label for=FORM_ELEMENT>',
    description:
      "A label's for attribute names a form field's name instead of its id. Set for to the field's id.",
  },
  'GenericIssue:FormDuplicateIdForInputError': {
    title: 'Duplicate form field id in the same form',
    description:
      'Several fields of one form share an id, which confuses labels and autofill. Make each id unique.',
  },
  'GenericIssue:FormInputWithNoLabelError': {
    title: 'A form field has no label',
    description:
      'A form field is not associated with a label, so assistive technology and autofill cannot name it. Add a <label for=…> or wrap the field in a label.',
  },
  'GenericIssue:FormAutocompleteAttributeEmptyError': {
    title: 'An autocomplete attribute is empty',
    description:
      'A form field has autocomplete="" which gives autofill no hint. Set a valid autocomplete token or remove the attribute.',
  },
  'GenericIssue:FormAriaLabelledByToNonExistingIdError': {
    title: "An aria-labelledby attribute doesn't match any element id",
    description:
      'aria-labelledby refers to an id that no element has, so the field has no accessible name from it. Fix the id reference.',
  },
  'GenericIssue:FormLabelHasNeitherForNorNestedInputError': {
    title: 'A label is not associated with any form field',
    description:
      'A label has no for attribute and contains no form field. Add for=<field id> or nest the field inside the label.',
  },
  'GenericIssue:FormLabelForMatchesNonExistingIdError': {
    title: "A label's for attribute doesn't match any element id",
    description:
      "A label's for attribute names an id that does not exist in the document. Point it at the field's id.",
  },
  'GenericIssue:FormInputHasWrongButWellIntendedAutocompleteValueError': {
    title: 'An autocomplete attribute value is not valid',
    description:
      'A form field uses an autocomplete value the browser does not recognise. Use a standard autocomplete token.',
  },
  'GenericIssue:FormInputAssignedAutocompleteValueToIdOrNameAttributeError': {
    title: 'An autocomplete value is used as a field id or name',
    description:
      'A field has an id or name that looks like an autocomplete token but no autocomplete attribute. Add the autocomplete attribute.',
  },
  'GenericIssue:ResponseWasBlockedByORB': {
    title: 'A response was blocked by Opaque Response Blocking (ORB)',
    description:
      'A cross-origin no-cors response was blocked because its content type cannot be used by the requesting element. Serve it with the right Content-Type or request it with CORS.',
  },
  'ContentSecurityPolicyIssue:kInlineViolation': {
    title: 'Content Security Policy blocks inline scripts or styles',
    description:
      'The page Content Security Policy blocked an inline script, style or event handler. Move the code to a file, or allow it with a nonce or hash.',
  },
  'ContentSecurityPolicyIssue:kEvalViolation': {
    title: "Content Security Policy blocks 'eval' in JavaScript",
    description:
      "The page Content Security Policy forbids eval() and similar string-to-code calls. Avoid them or add 'unsafe-eval' to script-src.",
  },
  'ContentSecurityPolicyIssue:kURLViolation': {
    title: 'Content Security Policy blocks some resources',
    description:
      'A resource was blocked because its URL is not allowed by the page Content Security Policy. Allow its origin in the violated directive, or load it from an allowed origin.',
  },
  'ContentSecurityPolicyIssue:kTrustedTypesSinkViolation': {
    title: 'Trusted Type expected, but a string was received',
    description:
      'The page requires Trusted Types and a string reached a DOM sink. Create the value through a Trusted Types policy.',
  },
  'ContentSecurityPolicyIssue:kTrustedTypesPolicyViolation': {
    title: 'Trusted Types policy creation blocked by Content Security Policy',
    description:
      'A Trusted Types policy name is not allowed by the trusted-types directive. Add the name to the directive.',
  },
  MixedContentIssue: {
    title: 'Mixed content: a secure page loads an insecure (HTTP) resource',
    description:
      'An HTTPS page requested a resource over HTTP; it was blocked or upgraded. Load the resource over HTTPS.',
  },
  CorsIssue: {
    title: 'A cross-origin request was blocked by CORS policy',
    description:
      'The browser blocked a cross-origin response because its CORS headers do not allow this origin or request. Fix the Access-Control-* headers on the server.',
  },
  CookieIssue: {
    title: 'A cookie was blocked or will be blocked',
    description:
      'The browser excluded a cookie or warns about it (see the reasons in the affected resources). Fix its SameSite, Secure, Domain or Path attributes.',
  },
  DeprecationIssue: {
    title: 'A deprecated feature is used',
    description:
      'The page uses a web platform feature that is deprecated and will be removed. See the type in the affected resources and migrate away from it.',
  },
  HeavyAdIssue: {
    title: 'An ad used too many resources and was unloaded',
    description:
      'An ad frame exceeded the network or CPU limits for ads and was removed or is about to be.',
  },
  SharedArrayBufferIssue: {
    title: 'SharedArrayBuffer requires cross-origin isolation',
    description:
      'SharedArrayBuffer was used without cross-origin isolation. Serve the page with COOP: same-origin and COEP: require-corp.',
  },
  BlockedByResponseIssue: {
    title: 'A resource was blocked by a response header',
    description:
      'A response was blocked because of its Cross-Origin-Embedder-Policy, Cross-Origin-Opener-Policy or Cross-Origin-Resource-Policy header.',
  },
};

/** Fields that name the reason within an issue kind, in the order they are looked for. */
const REASON_FIELDS = [
  'errorType',
  'contentSecurityPolicyViolationType',
  'reason',
  'type',
  'violationType',
  'elementAccessibilityIssueReason',
  'styleSheetLoadingIssueReason',
  'propertyRuleIssueReason',
  'clientHintIssueReason',
  'sharedDictionaryError',
] as const;

function field(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object' || !(name in value)) {
    return undefined;
  }
  const found: unknown = Reflect.get(value, name);
  return found;
}

/** The one populated `…IssueDetails` object of an issue. */
function issueDetailObject(details: object): object | undefined {
  const values: unknown[] = Object.values(details);
  for (const value of values) {
    if (value !== null && typeof value === 'object') {
      return value;
    }
  }
  return undefined;
}

function reasonOf(inner: object | undefined): string | undefined {
  for (const name of REASON_FIELDS) {
    const value = field(inner, name);
    if (typeof value === 'string') {
      return value;
    }
  }
  const cors = field(field(inner, 'corsErrorStatus'), 'corsError');
  if (typeof cors === 'string') {
    return cors;
  }
  const reasons = [
    ...arrayOfStrings(field(inner, 'cookieExclusionReasons')),
    ...arrayOfStrings(field(inner, 'cookieWarningReasons')),
  ];
  return reasons.length > 0 ? reasons.join(',') : undefined;
}

function arrayOfStrings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

/** "HeavyAdIssue" → "Heavy ad issue"; "kURLViolation" → "URL violation". */
function humanize(identifier: string): string {
  const words = identifier
    .replace(/^k(?=[A-Z])/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface IssueKind extends IssueText {
  /** Aggregation key: code plus reason. */
  key: string;
}

export function issueKind(code: string, details: object): IssueKind {
  const reason = reasonOf(issueDetailObject(details));
  const key = reason === undefined ? code : `${code}:${reason}`;
  const known = KNOWN[key] ?? KNOWN[code];
  if (known) {
    const suffix = KNOWN[key] || reason === undefined ? '' : ` (${humanize(reason)})`;
    return {key, title: `${known.title}${suffix}`, description: known.description};
  }
  const title = reason === undefined ? humanize(code) : `${humanize(code)}: ${humanize(reason)}`;
  return {
    key,
    title,
    description: 'Chrome reported this DevTools issue; the affected resources below say where.',
  };
}

/** Protocol ids that identify nothing an agent can use (no tool takes them). */
const INTERNAL_IDS = new Set([
  'frameId',
  'requestId',
  'scriptId',
  'loaderId',
  'nodeId',
  'documentNodeId',
  'violatingNodeId',
]);

/** One affected resource: the issue details without protocol-internal ids. */
export function affectedResource(details: object): string {
  const inner = issueDetailObject(details) ?? details;
  const text = JSON.stringify(inner, (name: string, value: unknown): unknown =>
    INTERNAL_IDS.has(name) ? undefined : value,
  );
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

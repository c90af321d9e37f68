// The heap snapshot worker only serializes progress texts with i18n; nobody reads them here, and
// the real i18n module needs DevTools' generated locale files.
export const i18n = {
  serializeUIString: (text, values = {}) => JSON.stringify({string: text, values}),
};

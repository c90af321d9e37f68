/**
 * The one way the UI renders a form from a JSON schema (tool arguments, WebMCP tool input): rjsf
 * with the CSP-safe validator, errors shown inline under each field, objects only. rjsf is
 * fetched when the first form is shown (RjsfForm.tsx); these helpers are not.
 */
import {type SchemaFormProps} from './formValues.js';
import {lazyComponent} from './lazyComponent.js';

export {isFormValues, isSchemaObject, type FormValues, type SchemaFormProps} from './formValues.js';
export {displaySchema} from './displaySchema.js';

const form = lazyComponent<SchemaFormProps>(
  () => import('./RjsfForm.js').then(module => module.RjsfForm),
  error =>
    error === undefined ? (
      <p className="muted" role="status" data-form-loading="">
        Loading the form…
      </p>
    ) : (
      <p className="notice notice--error" role="alert">
        The form could not be loaded: {error}. Check that the inspector server is still running,
        then reload the inspector.
      </p>
    ),
);

export const SchemaForm = form.Component;
/** Fetches rjsf ahead of the first form (e.g. when a panel with forms opens). */
export const preloadSchemaForm = form.preload;

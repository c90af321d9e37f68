/**
 * The form itself: rjsf with the CSP-safe validator, errors shown inline under each field. The
 * biggest part of the UI's code, so it is its own chunk: import SchemaForm (SchemaForm.tsx), which
 * loads this when a form is first shown.
 */
import Form from '@rjsf/core';
import {displaySchema} from './displaySchema.js';
import {cfWorkerValidator} from './schemaValidator.js';
import {isFormValues, type SchemaFormProps} from './formValues.js';

export function RjsfForm(props: SchemaFormProps): React.JSX.Element {
  const {onChange, onSubmit} = props;
  return (
    <Form
      schema={displaySchema(props.schema)}
      uiSchema={props.uiSchema}
      formData={props.formData}
      validator={cfWorkerValidator}
      noHtml5Validate
      showErrorList={false}
      idPrefix={props.idPrefix}
      onChange={event => {
        if (isFormValues(event.formData)) {
          onChange(event.formData);
        }
      }}
      onSubmit={event => {
        onSubmit(isFormValues(event.formData) ? event.formData : {});
      }}
    />
  );
}

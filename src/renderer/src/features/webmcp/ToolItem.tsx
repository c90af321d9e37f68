/**
 * One WebMCP tool: a list item named after the tool, with its annotation chips, status and the
 * Execute and Cancel buttons; opened, it shows the full description, the schema (as text), the
 * input form or raw JSON, where it was registered, and its last result.
 */
import type {UiSchema} from '@rjsf/utils';
import type {WebMcpInvocation, WebMcpToolInfo} from '../../../../shared/protocol.js';
import {formatDuration} from '../../ui/format.js';
import {objectSchema} from '../../ui/argumentsDraft.js';
import {ArgumentsEditor, type ArgumentsEditorText} from '../../ui/ArgumentsEditor.js';
import {memo} from 'react';
import type {ToolActions} from './useWebMcpModel.js';
import type {ToolActivity, ToolDraft} from './webmcpModel.js';
import {
  annotationChips,
  invokerLabel,
  shownOutput,
  preview,
  revealInvisible,
  statusLabel,
  statusTone,
} from './webmcpDisplay.js';

const FORM_UI: UiSchema = {'ui:submitButtonOptions': {norender: true}};

function domId(tool: WebMcpToolInfo): string {
  // Browsers keep tool names to [A-Za-z0-9_.-]; anything else is replaced too, just in case.
  const name = /^[\w.-]+$/.test(tool.name)
    ? tool.name.replaceAll('.', '_')
    : tool.name.replace(/[^\w-]/g, '_');
  return `wm-${tool.pageId}-${tool.frameId.replace(/[^\w-]/g, '_')}-${name}`;
}

function StatusBadge(props: {invocation: WebMcpInvocation | undefined}): React.JSX.Element {
  const {invocation} = props;
  return (
    <span className="webmcp-status">
      {invocation ? (
        <span
          className={`status status--${statusTone(invocation.status)}`}
          data-status={invocation.status}
        >
          {invocation.cancelRequested && invocation.status === 'running'
            ? 'cancelling…'
            : statusLabel(invocation.status)}
        </span>
      ) : null}
    </span>
  );
}

export function InvocationResult(props: {invocation: WebMcpInvocation}): React.JSX.Element {
  const {invocation} = props;
  const output = shownOutput(invocation.output);
  const duration =
    invocation.endedAt === undefined ? undefined : invocation.endedAt - invocation.startedAt;
  return (
    <div className="webmcp-result">
      <p className="webmcp-result__meta">
        <span className={`status status--${statusTone(invocation.status)}`}>
          {statusLabel(invocation.status)}
        </span>{' '}
        <span className="muted">
          by {invokerLabel(invocation)}
          {duration === undefined ? '' : ` · ${formatDuration(duration)}`}
        </span>
      </p>
      <p className="webmcp-result__label">Input</p>
      <pre className="code-block" tabIndex={0} aria-label="Input">
        {revealInvisible(invocation.input)}
      </pre>
      {output ? (
        <>
          <p className="webmcp-result__label">
            Output {output.kind === 'json' ? '(JSON)' : '(text)'}{' '}
            <span className="webmcp-chip webmcp-chip--warn">untrusted, from the page</span>
          </p>
          <pre className="code-block" tabIndex={0} aria-label="Output" data-testid="webmcp-output">
            {output.text}
          </pre>
          {invocation.outputTruncated ? (
            <p className="muted">The output was shortened here; MCP clients get all of it.</p>
          ) : null}
        </>
      ) : null}
      {invocation.errorText ? (
        <p className="notice notice--error" data-testid="webmcp-error">
          {revealInvisible(invocation.errorText)}
        </p>
      ) : null}
      {invocation.exception ? (
        <>
          <p className="webmcp-result__label">Exception</p>
          <pre
            className="code-block webmcp-exception"
            tabIndex={0}
            aria-label="Exception"
            data-testid="webmcp-exception"
          >
            {revealInvisible(invocation.exception)}
          </pre>
        </>
      ) : null}
    </div>
  );
}

export interface ToolItemProps {
  tool: WebMcpToolInfo;
  open: boolean;
  latest: WebMcpInvocation | undefined;
  running: WebMcpInvocation | undefined;
  activity: ToolActivity;
  draft: ToolDraft;
  connected: boolean;
  actions: ToolActions;
}

const WEBMCP_INPUT: ArgumentsEditorText = {
  modes: 'Edit input as',
  jsonMode: 'Raw JSON',
  jsonField: 'Input (JSON object)',
  notObject: 'The input must be a JSON object, e.g. {"text": "hello"}.',
  rows: 6,
};

function ToolDetails(props: ToolItemProps): React.JSX.Element {
  const {tool, latest} = props;
  return (
    <div className="webmcp-tool__details" id={`${domId(tool)}-details`}>
      <ToolFacts {...props} />
      <ToolInput {...props} />
      {latest ? (
        <section className="webmcp-last" aria-label={`Last result of ${tool.name}`}>
          <InvocationResult invocation={latest} />
        </section>
      ) : null}
    </div>
  );
}

/** The full description, where the tool lives, its form in the page, and its schema as text. */
function ToolFacts(props: ToolItemProps): React.JSX.Element {
  const {tool, activity, actions} = props;
  return (
    <>
      <pre className="webmcp-text" tabIndex={0} aria-label="Description">
        {revealInvisible(tool.description)}
      </pre>
      <dl className="webmcp-meta">
        <dt>Frame</dt>
        <dd className="mono">{revealInvisible(tool.frameUrl)}</dd>
        {tool.location ? (
          <>
            <dt>Registered at</dt>
            <dd className="mono">
              {revealInvisible(tool.location.url)}:{tool.location.line + 1}:
              {tool.location.column + 1}
            </dd>
          </>
        ) : null}
      </dl>
      {tool.declarative ? (
        <p className="webmcp-tool__form-row">
          <button type="button" onClick={() => actions.highlightForm(tool)}>
            Show form in page
          </button>
          {activity.highlight ? (
            <span className="muted" role="status">
              {activity.highlight}
            </span>
          ) : null}
        </p>
      ) : null}
      <details className="webmcp-schema">
        <summary>Input schema</summary>
        <pre className="code-block" tabIndex={0} aria-label={`Input schema of ${tool.name}`}>
          {revealInvisible(JSON.stringify(tool.inputSchema ?? {}, null, 2))}
        </pre>
      </details>
    </>
  );
}

/** The input editor, and why the last Execute was not sent. */
function ToolInput(props: ToolItemProps): React.JSX.Element {
  const {tool, draft, actions} = props;
  return (
    <div className="webmcp-input">
      <ArgumentsEditor
        idPrefix={domId(tool)}
        text={WEBMCP_INPUT}
        draft={draft}
        onEdit={action => actions.edit(tool, action)}
        schema={objectSchema(tool.inputSchema)}
        uiSchema={FORM_UI}
        onSubmit={() => actions.execute(tool)}
        formClass="webmcp-form"
        noFields={<p className="muted">This tool takes no input.</p>}
      />
      {draft.validation.length > 0 ? (
        <div className="notice notice--error" role="alert">
          <p className="webmcp-result__label">Not sent: the input does not match the schema.</p>
          <ul>
            {draft.validation.map((message, index) => (
              <li key={index}>{revealInvisible(message)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** Memoized: with 200 tools, an invocation of one re-renders only its row. */
export const ToolItem = memo(function ToolItem(props: ToolItemProps): React.JSX.Element {
  const {tool, open, latest, running, activity, connected, actions} = props;
  const id = domId(tool);
  return (
    <li
      className="webmcp-tool"
      aria-label={tool.name}
      data-tool={tool.name}
      data-frame-id={tool.frameId}
    >
      <div className="webmcp-tool__head">
        <button
          type="button"
          className="webmcp-tool__toggle"
          aria-expanded={open}
          aria-controls={`${id}-details`}
          onClick={() => actions.toggle(tool)}
        >
          <span className="mono webmcp-tool__name">{revealInvisible(tool.name)}</span>
        </button>
        {tool.title ? (
          <span className="webmcp-tool__title">{revealInvisible(tool.title)}</span>
        ) : null}
        <span className="webmcp-chips" aria-label="Annotations">
          {annotationChips(tool).map(chip => (
            <span
              key={chip.id}
              className={`webmcp-chip webmcp-chip--${chip.tone}`}
              title={chip.description}
              data-chip={chip.id}
            >
              {chip.label}
            </span>
          ))}
        </span>
        <StatusBadge invocation={activity.sending ? undefined : latest} />
        <button
          type="button"
          className="primary"
          disabled={!connected || activity.sending}
          onClick={() => actions.execute(tool)}
        >
          Execute
        </button>
        <button
          type="button"
          disabled={running === undefined || running.cancelRequested === true}
          onClick={() => actions.cancel(tool)}
        >
          Cancel
        </button>
      </div>
      {open ? null : (
        <p className="webmcp-tool__description">{preview(revealInvisible(tool.description))}</p>
      )}
      {activity.error ? (
        <p className="notice notice--error" role="alert">
          {activity.error}
        </p>
      ) : null}
      {open ? <ToolDetails {...props} /> : null}
    </li>
  );
});

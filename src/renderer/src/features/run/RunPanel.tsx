/**
 * Run any enabled tool by hand: a form generated from the tool's JSON schema (or raw JSON), and
 * the result. The call goes through the engine's normal pipeline and shows in the log.
 */
import type {UiSchema} from '@rjsf/utils';
import {EmptyState} from '../../ui/EmptyState.js';
import {DataImage} from '../../ui/DataImage.js';
import {JsonTree} from '../../ui/JsonTree.js';
import {ArgumentsEditor, type ArgumentsEditorText} from '../../ui/ArgumentsEditor.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import type {RunOutcome} from './runModel.js';
import {type RunModel, useRunModel} from './useRunModel.js';
import './run.css';

export function RunPanel(): React.JSX.Element {
  const model = useRunModel();
  if (!model.ready) {
    return <EmptyState title="Loading tools…">Waiting for the server to answer.</EmptyState>;
  }
  if (model.tools.length === 0) {
    return (
      <EmptyState title="No tool is enabled">
        Turn on a category in Tools, then pick a tool here.
      </EmptyState>
    );
  }
  return (
    <div className="panel-body run-panel">
      <p className="muted">
        Runs exactly like an agent&apos;s call (same checks, same page locks) and shows in the Log
        as coming from the <strong>Inspector</strong>.
      </p>
      <p className="muted" data-testid="run-selected-page">
        {model.selectedPage ? (
          <>
            Selected here: page <span className="mono">{model.selectedPage.id}</span>{' '}
            {revealInvisible(model.selectedPage.title || model.selectedPage.url)}. Agents each have
            their own selection; select_page here moves only this one.
          </>
        ) : (
          'No page selected here yet: new_page or select_page from this panel selects one.'
        )}
      </p>
      <label className="run-panel__pick">
        <span>Tool</span>
        <select
          value={model.tool?.name ?? ''}
          onChange={event => model.selectTool(event.target.value)}
        >
          <option value="">Choose a tool…</option>
          {model.tools.map(tool => (
            <option key={tool.name} value={tool.name}>
              {tool.name}
            </option>
          ))}
        </select>
      </label>
      {model.tool && !model.tool.enabled ? (
        <p className="notice notice--error">
          {model.tool.disabledReason ?? `${model.tool.name} is switched off.`}
        </p>
      ) : null}
      {model.tool ? (
        <ToolForm model={model} />
      ) : (
        <p className="muted">
          Pick a tool to fill in its arguments. From the Log, &quot;Run again…&quot; brings a call
          here with its arguments ready to edit.
        </p>
      )}
      {model.outcome ? <Outcome outcome={model.outcome} /> : null}
    </div>
  );
}

const RUN_ARGUMENTS: ArgumentsEditorText = {
  modes: 'Edit arguments as',
  jsonMode: 'JSON',
  jsonField: 'Arguments (JSON object)',
  notObject: 'Arguments must be a JSON object, e.g. {"url": "https://example.com"}.',
  rows: 10,
};

function ToolForm(props: {model: RunModel}): React.JSX.Element | null {
  const {model} = props;
  const {tool, schema, draft} = model;
  if (!tool || !schema) {
    return null;
  }
  const runLabel = model.running ? 'Running…' : `Run ${tool.name}`;
  const uiSchema: UiSchema = {
    'ui:submitButtonOptions': {
      submitText: runLabel,
      props: {className: 'primary', disabled: model.running || !model.connected},
    },
  };
  return (
    <section className="card run-form" aria-label={`Arguments for ${tool.name}`}>
      <p className="run-form__description">{tool.description}</p>
      <ArgumentsEditor
        idPrefix="run"
        text={RUN_ARGUMENTS}
        draft={draft}
        onEdit={model.edit}
        schema={schema}
        uiSchema={uiSchema}
        onSubmit={model.run}
        jsonFooter={
          <button
            type="button"
            className="primary"
            disabled={model.running || !model.connected || draft.jsonError !== undefined}
            onClick={() => model.run()}
          >
            {runLabel}
          </button>
        }
      />
    </section>
  );
}

function Outcome(props: {outcome: RunOutcome}): React.JSX.Element {
  const {outcome} = props;
  return (
    <section
      className={`card run-outcome${outcome.isError ? ' run-outcome--error' : ''}`}
      aria-label={`Result of ${outcome.tool}`}
      data-testid="run-outcome"
    >
      <h2>
        Result of <span className="mono">{outcome.tool}</span>{' '}
        <span className={`status status--${outcome.isError ? 'error' : 'ok'}`}>
          {outcome.isError ? 'error' : 'ok'}
        </span>
      </h2>
      {outcome.failure ? <p className="notice notice--error">{outcome.failure}</p> : null}
      {outcome.result ? (
        <>
          {outcome.result.text ? (
            <pre className="code-block" tabIndex={0} aria-label="Result text">
              {outcome.result.text}
            </pre>
          ) : null}
          {outcome.result.images.map((image, index) => (
            <DataImage
              key={index}
              mimeType={image.mimeType}
              data={image.data}
              alt={`Image ${index + 1} returned by ${outcome.tool}`}
            />
          ))}
          {outcome.result.structuredContent ? (
            <JsonTree value={outcome.result.structuredContent} label="Structured content" />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

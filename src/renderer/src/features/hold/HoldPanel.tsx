/**
 * Hold: agent calls that match a hold rule wait here for a decision — Allow, Edit the arguments
 * (the Run panel's schema form, checked with the tool's schema), or Deny with a reason — with the
 * live view of their page and the target element outlined; whether the agent's client was asked
 * too (the first answer wins) or may give up waiting; the calls decided lately, and where. The
 * rules are set here too.
 */
import type {UiSchema} from '@rjsf/utils';
import {HOLD_RULES_ACCEPTED} from '../../../../shared/hold.js';
import {ArgumentsEditor, type ArgumentsEditorText} from '../../ui/ArgumentsEditor.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {imageDataUrl} from '../../ui/DataImage.js';
import {JsonTree} from '../../ui/JsonTree.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {HOLD_KEYS, secondsLeft} from './holdModel.js';
import {type HoldModel, useHoldModel} from './useHoldModel.js';
import './hold.css';
import {boxStyle} from '../../ui/boxStyle.js';
import {ClientBadge} from '../../ui/ClientBadge.js';
import {formatClock} from '../../ui/format.js';
import type {DecidedCall} from '../../store/HoldTracker.js';

const PRESETS: readonly {label: string; rules: string[]}[] = [
  {label: 'Off', rules: []},
  {label: 'Not read-only', rules: ['not-read-only']},
  {label: 'Every call', rules: ['all']},
  {label: 'Next call only', rules: ['step']},
];

export function HoldPanel(): React.JSX.Element {
  const model = useHoldModel();
  return (
    <div className="panel-body hold-panel">
      <Rules model={model} />
      {model.panel.error ? (
        <p className="notice notice--error" role="alert" data-testid="hold-error">
          {model.panel.error}
        </p>
      ) : null}
      <HeldWhileOff model={model} />
      <Queue model={model} />
      <Decided model={model} />
    </div>
  );
}

const DECISION_WORDS: Record<DecidedCall['decision'], string> = {
  allowed: 'allowed',
  edited: 'edited and run',
  denied: 'denied',
  timedOut: 'denied: nobody decided in time',
  cancelled: 'cancelled by the client',
};

/** The last calls decided while this inspector watched, and where each was decided. */
function Decided(props: {model: HoldModel}): React.JSX.Element | null {
  const decided = props.model.hold?.decided ?? [];
  if (decided.length === 0) {
    return null;
  }
  return (
    <section className="hold-decided" aria-labelledby="hold-decided-heading">
      <h2 id="hold-decided-heading">
        Decided <span className="muted">(newest first)</span>
      </h2>
      <ol className="hold-decided__list">
        {decided.map(call => (
          <li key={call.callId} data-call-id={call.callId} data-decided-in={call.decidedIn ?? ''}>
            <span className="mono">{formatClock(call.at)}</span>{' '}
            <span className="mono">{revealInvisible(call.tool)}</span> from{' '}
            <ClientBadge client={call.client} />: {DECISION_WORDS[call.decision]}
            {call.decidedIn === 'client' ? (
              <strong> in {revealInvisible(call.client.name)}&apos;s own prompt</strong>
            ) : call.decidedIn === 'inspector' ? (
              ' here'
            ) : (
              ''
            )}
            {call.reason && call.decidedIn !== 'client' ? (
              <span className="muted"> ({revealInvisible(call.reason)})</span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Whether the agent's person can answer in their client too, or may stop waiting. */
function Reach(props: {model: HoldModel}): React.JSX.Element | null {
  const {call, hold} = props.model;
  if (!call) {
    return null;
  }
  if (call.askedInClient === true) {
    return (
      <p className="hold-detail__reach" data-testid="hold-asked-in-client">
        Also asked in <ClientBadge client={call.client} />: the first answer, there or here, decides
        it.
      </p>
    );
  }
  if (call.clientMayGiveUp === true) {
    const seconds = Math.round((hold?.timeoutMs ?? 0) / 1000);
    return (
      <p className="notice hold-detail__reach" data-testid="hold-may-give-up">
        This client cannot be asked in its own window (no MCP elicitation) and asked for no
        progress, so it may give up on the call after its own timeout (60 s for clients built on the
        MCP SDK), before this hold&apos;s {seconds} s. Decide soon.
      </p>
    );
  }
  return null;
}

function Rules(props: {model: HoldModel}): React.JSX.Element {
  const {model} = props;
  const current = model.hold?.rules ?? [];
  const text = model.panel.rulesText ?? current.join(',');
  return (
    <section className="card hold-rules" aria-labelledby="hold-rules-heading">
      <h2 id="hold-rules-heading">
        Hold rules{' '}
        <span className="muted" data-testid="hold-rules-state">
          {model.rulesSummary}
        </span>
      </h2>
      <form
        className="hold-rules__form"
        onSubmit={event => {
          event.preventDefault();
          model.applyRules(text.split(',').filter(part => part.trim() !== ''));
        }}
      >
        <label>
          <span>Rules</span>
          <input
            className="mono"
            value={text}
            placeholder="e.g. not-read-only,tool:click,url:*://*.example.com/*"
            aria-describedby="hold-rules-help"
            onChange={event => model.setRulesText(event.target.value)}
          />
        </label>
        <button type="submit" disabled={!model.connected || model.panel.busy}>
          Apply
        </button>
        {PRESETS.map(preset => (
          <button
            key={preset.label}
            type="button"
            disabled={!model.connected || model.panel.busy}
            onClick={() => model.applyRules(preset.rules)}
          >
            {preset.label}
          </button>
        ))}
      </form>
      <p id="hold-rules-help" className="muted hold-rules__help">
        Same as the --hold flag: {HOLD_RULES_ACCEPTED}. Calls from the inspector are never held.
      </p>
      <label className="hold-rules__open">
        <input
          type="checkbox"
          role="switch"
          aria-label="Open this tab when a call is held"
          checked={model.openOnHeld}
          disabled={!model.connected || model.panel.busy}
          onChange={event => model.setOpenOnHeld(event.target.checked)}
        />
        <span>Open this tab when a call is held</span>
      </label>
    </section>
  );
}

/** Hold was turned off while calls waited: they still count down to a deny unless decided. */
function HeldWhileOff(props: {model: HoldModel}): React.JSX.Element | null {
  const {model} = props;
  if (model.heldWhileOff === undefined) {
    return null;
  }
  const disabled = !model.connected || model.panel.busy;
  return (
    <div className="notice hold-off-held" role="status" data-testid="hold-off-held">
      <p>{model.heldWhileOff}</p>
      <div className="hold-off-held__actions">
        <button
          type="button"
          className="primary"
          disabled={disabled}
          onClick={() => model.act('allowAll')}
        >
          Allow all
        </button>
        <button type="button" disabled={disabled} onClick={model.denyAll}>
          Deny all
        </button>
      </div>
    </div>
  );
}

function Queue(props: {model: HoldModel}): React.JSX.Element {
  const {model} = props;
  const queue = model.hold?.queue ?? [];
  if (queue.length === 0) {
    return (
      <EmptyState title="No call is held">
        {(model.hold?.rules.length ?? 0) === 0
          ? 'Turn on a rule above (or start with --hold) to stop agent calls for your approval.'
          : 'Agent calls that match the rules wait here for you.'}
      </EmptyState>
    );
  }
  return (
    <div className="hold-main">
      <section className="hold-queue" aria-labelledby="hold-queue-heading">
        <h2 id="hold-queue-heading">
          Held calls <span className="muted">({queue.length}, oldest first)</span>
        </h2>
        <ol className="hold-queue__list">
          {queue.map(call => (
            <li key={call.callId}>
              <button
                type="button"
                className={`hold-queue__item${call.callId === model.call?.callId ? ' hold-queue__item--shown' : ''}`}
                aria-current={call.callId === model.call?.callId}
                data-call-id={call.callId}
                onClick={() => model.pick(call.callId)}
              >
                <span className="mono">{call.tool}</span>
                <span className="muted hold-queue__who">
                  <ClientBadge client={call.client} />
                  {call.pageId === undefined ? '' : ` · page ${call.pageId}`}
                </span>
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          disabled={!model.connected || model.panel.busy}
          onClick={() => model.act('allowAll')}
        >
          Allow all <kbd>R</kbd>
        </button>
      </section>
      {model.call ? <Detail model={model} /> : null}
    </div>
  );
}

const EDIT_ARGUMENTS: ArgumentsEditorText = {
  modes: 'Edit the held arguments as',
  jsonMode: 'JSON',
  jsonField: 'Arguments (JSON object)',
  notObject: 'Arguments must be a JSON object, e.g. {"uid": "1_2"}.',
  rows: 8,
};

function Detail(props: {model: HoldModel}): React.JSX.Element | null {
  const {model} = props;
  const {call} = model;
  if (!call) {
    return null;
  }
  const disabled = !model.connected || model.panel.busy;
  return (
    <section
      className="card hold-detail"
      aria-label={`Held call ${call.tool}`}
      data-testid="held-call"
    >
      <h2>
        <span className="status status--held">held</span> <span className="mono">{call.tool}</span>
        <span className="muted"> · {secondsLeft(call, model.now)} s left</span>
      </h2>
      <dl className="hold-detail__facts">
        <dt>Client</dt>
        <dd>
          <ClientBadge client={call.client} />{' '}
          <span className="muted">({call.client.transport})</span>
        </dd>
        <dt>Page</dt>
        <dd className="mono">
          {call.pageId === undefined ? '—' : `${call.pageId} `}
          {call.pageUrl ? revealInvisible(call.pageUrl) : ''}
          {model.pageOwner && model.pageOwner.id !== call.client.id ? (
            <span className="hold-detail__owner">
              {' '}
              opened by <ClientBadge client={model.pageOwner} />
            </span>
          ) : null}
        </dd>
        <dt>Why</dt>
        <dd>
          {revealInvisible(call.reason)} <span className="muted mono">({call.rule})</span>
        </dd>
        {call.target ? (
          <>
            <dt>Target</dt>
            <dd className="mono">
              {call.target.param} {revealInvisible(call.target.uid)}
              {call.target.rect ? '' : <span className="muted"> (not found in the page)</span>}
            </dd>
          </>
        ) : null}
      </dl>
      <Reach model={model} />
      <div className="hold-detail__actions" role="group" aria-label="Decision">
        <button
          type="button"
          className="primary"
          disabled={disabled}
          onClick={() => model.act('allow')}
        >
          Allow <kbd>A</kbd>
        </button>
        <button type="button" disabled={disabled} onClick={() => model.act('edit')}>
          Edit <kbd>E</kbd>
        </button>
        <button type="button" disabled={disabled} onClick={() => model.act('deny')}>
          Deny <kbd>D</kbd>
        </button>
        <button type="button" disabled={disabled} onClick={() => model.act('step')}>
          Allow and step <kbd>S</kbd>
        </button>
      </div>
      <HoldKeys />
      {model.mode === 'deny' ? <DenyForm model={model} /> : null}
      {model.mode === 'edit' ? (
        <EditForm model={model} />
      ) : (
        <JsonTree value={call.args} label="Arguments" />
      )}
      <HeldLiveView model={model} />
    </section>
  );
}

function HoldKeys(): React.JSX.Element {
  return (
    <p className="muted hold-detail__keys" data-testid="hold-keys">
      Keys: {HOLD_KEYS.map(entry => `${entry.key.toUpperCase()} ${entry.label}`).join(' · ')}
    </p>
  );
}

function DenyForm(props: {model: HoldModel}): React.JSX.Element {
  const {model} = props;
  return (
    <form
      className="hold-deny"
      onSubmit={event => {
        event.preventDefault();
        model.deny();
      }}
      onKeyDown={event => {
        if (event.key === 'Escape') {
          model.cancelMode();
        }
      }}
    >
      <label>
        <span>Reason (told to the agent, optional)</span>
        <input
          // The field is what the person came to fill in after pressing D.
          autoFocus
          value={model.panel.reason}
          onChange={event => model.setReason(event.target.value)}
        />
      </label>
      <button
        type="submit"
        className="hold-deny__submit"
        disabled={!model.connected || model.panel.busy}
      >
        Deny the call
      </button>
      <button type="button" onClick={model.cancelMode}>
        Back
      </button>
    </form>
  );
}

function EditForm(props: {model: HoldModel}): React.JSX.Element | null {
  const {model} = props;
  const {schema, panel, call} = model;
  if (!schema || !call) {
    return <p className="notice notice--error">The tool {call?.tool} is not known to this view.</p>;
  }
  const label = model.panel.busy ? 'Running…' : `Run ${call.tool} with these arguments`;
  const uiSchema: UiSchema = {
    'ui:submitButtonOptions': {
      submitText: label,
      props: {className: 'primary', disabled: panel.busy || !model.connected},
    },
  };
  return (
    <div className="hold-edit" aria-label={`Edit the arguments of ${call.tool}`} role="group">
      <ArgumentsEditor
        idPrefix="hold"
        text={EDIT_ARGUMENTS}
        draft={panel.draft}
        onEdit={model.edit}
        schema={schema}
        uiSchema={uiSchema}
        onSubmit={model.runEdited}
        jsonFooter={
          <button
            type="button"
            className="primary"
            disabled={panel.busy || !model.connected || panel.draft.jsonError !== undefined}
            onClick={() => model.runEdited()}
          >
            {label}
          </button>
        }
      />
      <button type="button" onClick={model.cancelMode}>
        Back
      </button>
    </div>
  );
}

function HeldLiveView(props: {model: HoldModel}): React.JSX.Element | null {
  const {call, outline, panel} = props.model;
  if (call?.pageId === undefined) {
    return null;
  }
  const frame = panel.frame?.pageId === call.pageId ? panel.frame : undefined;
  const url = frame ? imageDataUrl(frame.mimeType, frame.data) : undefined;
  return (
    <figure className="hold-live">
      <figcaption className="muted">Live view of page {call.pageId}</figcaption>
      {url ? (
        <div className="hold-live__frame" data-testid="hold-live-view">
          <img src={url} alt={`Live view of page ${call.pageId}`} />
          {outline ? (
            <div
              className="hold-live__outline"
              data-testid="held-target-outline"
              title={`Target of ${call.tool}`}
              style={boxStyle(outline)}
            />
          ) : null}
        </div>
      ) : (
        <p className="muted">Waiting for the first frame…</p>
      )}
    </figure>
  );
}

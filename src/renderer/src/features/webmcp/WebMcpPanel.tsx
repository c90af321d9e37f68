/**
 * The WebMCP panel: the pages' own tools grouped by page and frame, run by hand (form or raw
 * JSON, validated, confirmed when they may change things), cancelled, their forms shown in the
 * page, a doctor for when tools do not show up, and every invocation by anyone.
 */
import {useEffect, useRef, useState} from 'react';
import type {WebMcpDoctorReport, WebMcpInvocation} from '../../../../shared/protocol.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {formatClock, formatDuration} from '../../ui/format.js';
import {LintReport} from './LintReport.js';
import {InvocationResult, ToolItem} from './ToolItem.js';
import {useWebMcpModel, type WebMcpModel} from './useWebMcpModel.js';
import type {PendingConfirmation} from './webmcpModel.js';
import {
  invokerLabel,
  revealInvisible,
  statusLabel,
  statusTone,
  type PageGroup,
} from './webmcpDisplay.js';
import './webmcp.css';

export function WebMcpPanel(): React.JSX.Element {
  const model = useWebMcpModel();
  if (!model.ready) {
    return <EmptyState title="Loading…">Waiting for the server to answer.</EmptyState>;
  }
  return (
    <div className="webmcp-panel">
      <div className="toolbar">
        <input
          type="search"
          aria-label="Filter WebMCP tools"
          placeholder="Filter tools"
          value={model.filter}
          onChange={event => model.setFilter(event.target.value)}
        />
        <span className="muted webmcp-count" aria-live="polite">
          {model.totalTools} tool{model.totalTools === 1 ? '' : 's'}
        </span>
        <span className="toolbar__spacer" />
        <button
          type="button"
          disabled={!model.connected || model.doctor.running}
          onClick={() => model.runDoctor(undefined)}
        >
          Check WebMCP
        </button>
      </div>
      <div className="panel-body">
        {model.unavailableReason ? (
          <p className="notice notice--error" data-testid="webmcp-unavailable">
            WebMCP is not available: {model.unavailableReason}
          </p>
        ) : null}
        {model.categoryOn ? null : (
          <p className="notice webmcp-category-note">
            Agents do not see these tools: the WebMCP category is off.{' '}
            <button type="button" onClick={model.openToolsPanel}>
              Open Tools
            </button>
          </p>
        )}
        {model.doctor.pageId === undefined ? <DoctorReport model={model} /> : null}
        {model.groups.length === 0 ? (
          <EmptyState title="No pages yet">
            Run a tool that opens a page (new_page), or attach to a browser. Pages served over https
            or from localhost can register tools with document.modelContext.registerTool or a
            &lt;form toolname&gt;.
          </EmptyState>
        ) : (
          model.groups.map(group => <PageSection key={group.pageId} model={model} group={group} />)
        )}
        <History model={model} />
      </div>
      {model.confirmation ? <ConfirmDialog model={model} pending={model.confirmation} /> : null}
    </div>
  );
}

function PageSection(props: {model: WebMcpModel; group: PageGroup}): React.JSX.Element {
  const {model, group} = props;
  const label = `Page ${group.pageId}`;
  return (
    <section className="webmcp-page" aria-label={label} data-page-id={group.pageId}>
      <header className="webmcp-page__head">
        <h2>
          {label}
          {group.selected ? (
            <span
              className="badge webmcp-page__selected"
              title="Run panel calls without pageId act here"
            >
              selected in Run
            </span>
          ) : null}{' '}
          <span className="webmcp-page__title">{revealInvisible(group.title || group.url)}</span>
        </h2>
        <span className="muted">
          {group.toolCount} tool{group.toolCount === 1 ? '' : 's'}
        </span>
        <button
          type="button"
          aria-label={`Diagnose WebMCP on page ${group.pageId}`}
          disabled={!model.connected || model.doctor.running}
          onClick={() => model.runDoctor(group.pageId)}
        >
          Diagnose
        </button>
      </header>
      {model.doctor.pageId === group.pageId ? <DoctorReport model={model} /> : null}
      {group.frames.length === 0 ? (
        <p className="muted webmcp-page__empty">
          {model.filter
            ? 'No tool on this page matches the filter.'
            : 'No WebMCP tools on this page. Diagnose tells why, if you expected some.'}
        </p>
      ) : (
        group.frames.map(frame => (
          <div className="webmcp-frame" key={frame.frameId} data-frame-id={frame.frameId}>
            <h3 className="webmcp-frame__head">
              <span>{frame.main ? 'Main frame' : 'iframe'}</span>{' '}
              <span className="mono muted">{revealInvisible(frame.url)}</span>
              {frame.main ? null : (
                <span className="muted"> · origin {revealInvisible(frame.origin)}</span>
              )}
            </h3>
            <ul
              className="webmcp-tools"
              aria-label={`Tools of ${frame.main ? 'the main frame' : 'the iframe'} of page ${group.pageId}`}
            >
              {frame.tools.map(tool => (
                <ToolItem
                  key={tool.name}
                  tool={tool}
                  open={model.isOpen(tool)}
                  latest={model.latest(tool)}
                  running={model.running(tool)}
                  activity={model.activity(tool)}
                  draft={model.draft(tool)}
                  connected={model.connected}
                  actions={model.actions}
                />
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}

function DoctorReport(props: {model: WebMcpModel}): React.JSX.Element | null {
  const {doctor} = props.model;
  const ref = useRef<HTMLElement>(null);
  const done = doctor.report !== undefined || doctor.error !== undefined;
  useEffect(() => {
    if (done) {
      ref.current?.scrollIntoView({block: 'nearest'});
    }
  }, [done]);
  if (!doctor.running && !done) {
    return null;
  }
  return (
    <section
      ref={ref}
      className="card webmcp-doctor"
      aria-label="WebMCP doctor"
      data-testid="webmcp-doctor"
    >
      <h2>WebMCP doctor{doctor.pageId === undefined ? '' : ` for page ${doctor.pageId}`}</h2>
      {doctor.running ? <p role="status">Checking…</p> : null}
      {doctor.error ? <p className="notice notice--error">{doctor.error}</p> : null}
      {doctor.report ? <ReportBody report={doctor.report} /> : null}
    </section>
  );
}

function ReportBody(props: {report: WebMcpDoctorReport}): React.JSX.Element {
  const {report} = props;
  return (
    <div role="status">
      <p>
        <span className={`status status--${report.available ? 'ok' : 'error'}`}>
          {report.available ? 'WebMCP is available' : 'WebMCP is not available'}
        </span>
        {report.browserVersion ? (
          <span className="muted"> · {revealInvisible(report.browserVersion)}</span>
        ) : null}
      </p>
      {report.problems.length > 0 ? (
        <ul className="webmcp-doctor__problems">
          {report.problems.map((problem, index) => (
            <li key={index} data-problem={problem.code}>
              <p className="webmcp-doctor__message">{revealInvisible(problem.message)}</p>
              <p className="muted">Fix: {revealInvisible(problem.fix)}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No problems found.</p>
      )}
      {report.notes.map((note, index) => (
        <p key={index} className="muted">
          {revealInvisible(note)}
        </p>
      ))}
      {report.lint ? <LintReport findings={report.lint} /> : null}
    </div>
  );
}

/** Rows shown at most; the store keeps more (bounded) and the count says so. */
const HISTORY_SHOWN = 200;

function History(props: {model: WebMcpModel}): React.JSX.Element {
  const {model} = props;
  const shown = model.history.slice(0, HISTORY_SHOWN);
  return (
    <section className="webmcp-history" aria-label="Invocation history">
      <header className="webmcp-history__head">
        <h2>Invocations</h2>
        <span className="muted">by this app, MCP clients and the page itself</span>
        <span className="toolbar__spacer" />
        <button type="button" disabled={model.history.length === 0} onClick={model.clearHistory}>
          Clear
        </button>
      </header>
      {model.history.length === 0 ? (
        <p className="muted">No invocations yet.</p>
      ) : (
        <>
          <ol className="webmcp-history__list" role="log" aria-label="Invocations, newest first">
            {shown.map(invocation => (
              <HistoryRow key={invocation.invocationId} model={model} invocation={invocation} />
            ))}
          </ol>
          {model.history.length > shown.length ? (
            <p className="muted">
              Showing the newest {shown.length} of {model.history.length} invocations.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function HistoryRow(props: {model: WebMcpModel; invocation: WebMcpInvocation}): React.JSX.Element {
  const {model, invocation} = props;
  // The details are built only when opened: a long history stays cheap to render.
  const [open, setOpen] = useState(false);
  const duration =
    invocation.endedAt === undefined ? undefined : invocation.endedAt - invocation.startedAt;
  return (
    <li
      className="webmcp-history__row"
      data-invocation-id={invocation.invocationId}
      data-status={invocation.status}
      data-invoker={invocation.invoker.kind}
    >
      <details onToggle={event => setOpen(event.currentTarget.open)}>
        <summary>
          <span className="mono muted">{formatClock(invocation.startedAt)}</span>{' '}
          <span className="mono webmcp-history__tool">{revealInvisible(invocation.toolName)}</span>{' '}
          <span className="muted">page {invocation.pageId}</span>{' '}
          <span className="webmcp-history__invoker">{invokerLabel(invocation)}</span>{' '}
          <span className={`status status--${statusTone(invocation.status)}`}>
            {statusLabel(invocation.status)}
          </span>{' '}
          <span className="muted">{formatDuration(duration)}</span>
        </summary>
        {open ? <InvocationResult invocation={invocation} /> : null}
      </details>
      {invocation.status === 'running' ? (
        <button
          type="button"
          aria-label={`Cancel this ${invocation.toolName} invocation`}
          disabled={invocation.cancelRequested === true}
          onClick={() => model.cancelInvocation(invocation.invocationId)}
        >
          Stop
        </button>
      ) : null}
    </li>
  );
}

function ConfirmDialog(props: {
  model: WebMcpModel;
  pending: PendingConfirmation;
}): React.JSX.Element {
  const {model, pending} = props;
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
    }
  }, []);
  const {tool} = pending;
  const why =
    tool.annotations.consequential === true
      ? 'It is marked consequential: running it can have real effects (a purchase, a message sent).'
      : 'It is not marked read-only, so it may change the page or your data.';
  return (
    <dialog
      ref={ref}
      className="webmcp-confirm"
      aria-labelledby="webmcp-confirm-title"
      onClose={model.dismissConfirmation}
    >
      <h2 id="webmcp-confirm-title">Run {revealInvisible(tool.name)}?</h2>
      <p>{why}</p>
      <p className="muted">Input</p>
      <pre className="code-block">{revealInvisible(JSON.stringify(pending.input, null, 2))}</pre>
      <div className="webmcp-confirm__actions">
        <button type="button" onClick={model.dismissConfirmation}>
          Don&apos;t run
        </button>
        <button type="button" className="primary" onClick={model.confirm}>
          Run it
        </button>
      </div>
    </dialog>
  );
}

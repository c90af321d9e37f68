/**
 * Everything about one call: what it did in a person's words, its arguments and the elements they
 * named (role, name, uid as they were when it ran), the response (text, images, structured
 * content), the error, timing and its telemetry record. All of it rendered as text: it comes from pages and
 * clients.
 */
import type {CallRecord} from '../../store/CallLog.js';
import {callLine} from '../../store/callLine.js';
import {CopyButton} from '../../ui/CopyButton.js';
import {formatClock, formatDuration} from '../../ui/format.js';
import {DataImage} from '../../ui/DataImage.js';
import {formatJson, JsonTree} from '../../ui/JsonTree.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import type {RecordedCallSlot} from './useLogModel.js';
import {CallActivity, type LoadImage} from './CallActivity.js';

export function CallDetail(props: {
  record: CallRecord | undefined;
  canRunAgain: boolean;
  onRunAgain: (record: CallRecord) => void;
  /** For a call of a recording on the server: what another panel offers for it. */
  recordedCall?: RecordedCallSlot | undefined;
  loadImage?: LoadImage | undefined;
}): React.JSX.Element {
  const {record} = props;
  if (!record) {
    return (
      <aside className="call-detail call-detail--empty" aria-label="Call details">
        <p className="muted">
          Select a call (click it, or focus the list and use the arrow keys) to see its arguments,
          response, timing and telemetry record.
        </p>
      </aside>
    );
  }
  return (
    <aside
      className="call-detail"
      aria-label={`Details of ${record.tool}`}
      data-testid="call-detail"
    >
      <header className="call-detail__header">
        <h2 className="call-detail__title mono">{revealInvisible(record.tool)}</h2>
        <span className={`status status--${record.status}`}>{record.status}</span>
        <span className="toolbar__spacer" />
        <CopyButton
          label="Copy as JSON"
          text={formatJson(record)}
          ariaLabel={`Copy call ${record.tool} as JSON`}
        />
        <button
          type="button"
          onClick={() => props.onRunAgain(record)}
          disabled={!props.canRunAgain}
          title={props.canRunAgain ? undefined : 'Connect to a live server to run tools.'}
        >
          Run again…
        </button>
      </header>
      <p className="call-detail__line" data-testid="call-line">
        {revealInvisible(callLine(record))}
      </p>
      {props.recordedCall ? (
        <div className="call-detail__recorded" data-testid="recording-actions-call">
          <props.recordedCall.Actions recordingId={props.recordedCall.recordingId} call={record} />
        </div>
      ) : null}
      <CallFacts record={record} />
      {record.errorText === undefined ? null : (
        <section aria-label="Error">
          <h3>Error</h3>
          <pre className="code-block call-detail__error">{revealInvisible(record.errorText)}</pre>
        </section>
      )}
      <section aria-label="Arguments">
        <h3>Arguments</h3>
        <JsonTree value={record.args} label={`Arguments of ${record.tool}`} />
      </section>
      <CallElements record={record} />
      <CallActivity record={record} loadImage={props.loadImage} />
      <CallResponse record={record} />
      <CallTelemetry record={record} />
    </aside>
  );
}

function CallFacts(props: {record: CallRecord}): React.JSX.Element {
  const {record} = props;
  return (
    <dl className="call-detail__facts">
      <dt>Client</dt>
      <dd>
        {revealInvisible(record.client.name)}
        {record.client.version ? ` ${revealInvisible(record.client.version)}` : ''}{' '}
        <span className="muted">({record.client.transport})</span>
      </dd>
      <dt>Page</dt>
      <dd>{record.pageId ?? <span className="muted">none</span>}</dd>
      <dt>Started</dt>
      <dd className="mono">{formatClock(record.startedAt)}</dd>
      <dt>Ended</dt>
      <dd className="mono">
        {record.endedAt === undefined ? 'still running' : formatClock(record.endedAt)}
      </dd>
      <dt>Duration</dt>
      <dd className="mono">
        {record.durationMs === undefined ? '…' : formatDuration(record.durationMs)}
      </dd>
      <dt>Call id</dt>
      <dd className="mono">{record.callId}</dd>
    </dl>
  );
}

/** Who the call's element arguments were when it ran (from the snapshot the agent acted on). */
function CallElements(props: {record: CallRecord}): React.JSX.Element | null {
  const elements = props.record.elements ?? [];
  if (elements.length === 0) {
    return null;
  }
  return (
    <section aria-label="Elements">
      <h3>Elements, as they were when it ran</h3>
      <table className="call-elements" data-testid="call-elements">
        <thead>
          <tr>
            <th scope="col">Argument</th>
            <th scope="col">Role</th>
            <th scope="col">Name</th>
            <th scope="col">uid</th>
          </tr>
        </thead>
        <tbody>
          {elements.map(element => (
            <tr key={element.param}>
              <td className="mono">{revealInvisible(element.param)}</td>
              <td>{revealInvisible(element.role)}</td>
              <td>
                {element.name === '' ? (
                  <span className="muted">no name</span>
                ) : (
                  revealInvisible(element.name)
                )}
              </td>
              <td className="mono">{revealInvisible(element.uid)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function CallResponse(props: {record: CallRecord}): React.JSX.Element {
  const {record} = props;
  const {result} = record;
  return (
    <section aria-label="Response">
      <h3>Response</h3>
      {result ? (
        <>
          {result.textChars === undefined ? null : (
            <p className="muted">
              A preview: the inspector and the recording keep the start of this{' '}
              {result.textChars.toLocaleString('en-US')}-character response; the agent got all of
              it.
            </p>
          )}
          {result.text === '' ? (
            <p className="muted">No text.</p>
          ) : (
            <pre className="code-block" tabIndex={0} aria-label="Response text">
              {revealInvisible(result.text)}
            </pre>
          )}
          {result.images.map((image, index) => (
            <DataImage
              // Images of one response never reorder.
              key={index}
              mimeType={image.mimeType}
              data={image.data}
              alt={`Image ${index + 1} returned by ${record.tool}`}
            />
          ))}
          {result.structuredContent === undefined ? null : (
            <>
              <h4>Structured content</h4>
              {result.structuredCut === true ? (
                <p className="muted">A preview: marks stand where parts were left out.</p>
              ) : null}
              <JsonTree value={result.structuredContent} label="Structured content" />
            </>
          )}
        </>
      ) : (
        <p className="muted">The call is still running.</p>
      )}
    </section>
  );
}

function CallTelemetry(props: {record: CallRecord}): React.JSX.Element {
  const {record} = props;
  return (
    <section aria-label="Telemetry record">
      <h3>Telemetry record</h3>
      {record.telemetry ? (
        <JsonTree value={record.telemetry} label="Telemetry record of this call" />
      ) : (
        <p className="muted">
          {record.status === 'running'
            ? 'Produced when the call ends.'
            : 'None: this call was rejected before it ran (unknown tool, switched off, or bad arguments).'}
        </p>
      )}
    </section>
  );
}

/**
 * What a call did on its page: a small timeline of its page activity (navigations, dialogs,
 * console messages, requests, WebMCP invocations, the changes it made to the document) and the page before and after it, with the
 * element it acted on outlined on the after image. The same component serves the live log and a
 * recording (whose images are fetched by file name). Everything shown is page text: inert.
 */
import {useEffect, useState} from 'react';
import type {CallActivityItem, CallImage} from '../../../../shared/protocol.js';
import type {CallRecord} from '../../store/CallLog.js';
import {formatCount} from '../../ui/format.js';
import {DataImage} from '../../ui/DataImage.js';
import {revealInvisible} from '../../ui/revealInvisible.js';

export type LoadImage = (file: string) => Promise<{mimeType: string; data: string} | undefined>;

const KIND_LABELS: Record<CallActivityItem['kind'], string> = {
  navigation: 'navigation',
  dialog: 'dialog',
  console: 'console',
  request: 'request',
  dom: 'changes',
  webmcp: 'WebMCP',
};

function itemText(item: CallActivityItem): string {
  switch (item.kind) {
    case 'navigation':
      return `→ ${item.url}`;
    case 'dialog':
      return `${item.dialogType}: ${item.message}`;
    case 'console':
      return `[${item.level}] ${item.text}`;
    case 'request':
      return `${item.method} ${item.url} · ${item.status}`;
    case 'webmcp':
      return `${item.toolName} (${item.status})`;
    case 'dom':
      return domText(item.nodes, item.texts);
  }
}

/** `14 nodes changed; text "clicked 1" appeared`. */
export function domText(nodes: number, texts: readonly string[]): string {
  const changed = `${formatCount(nodes)} node${nodes === 1 ? '' : 's'} changed`;
  if (texts.length === 0) {
    return changed;
  }
  return `${changed}; text ${texts.map(text => JSON.stringify(text)).join(', ')} appeared`;
}

export function CallActivity(props: {
  record: CallRecord;
  loadImage?: LoadImage | undefined;
}): React.JSX.Element | null {
  const {record} = props;
  if (!record.activity && !record.screenshots) {
    return null;
  }
  return (
    <>
      {record.activity ? <CallTimeline record={record} activity={record.activity} /> : null}
      {record.screenshots ? (
        <CallScreens record={record} screenshots={record.screenshots} loadImage={props.loadImage} />
      ) : null}
    </>
  );
}

function CallTimeline(props: {
  record: CallRecord;
  activity: NonNullable<CallRecord['activity']>;
}): React.JSX.Element {
  const {record, activity} = props;
  const span = Math.max(1, record.durationMs ?? 1);
  return (
    <section aria-label="Page activity" data-testid="call-timeline">
      <h3>Page activity</h3>
      {activity.items.length === 0 ? (
        <p className="muted">Nothing happened on page {record.pageId ?? '?'} while it ran.</p>
      ) : (
        <>
          <div className="call-timeline__bar" aria-hidden="true">
            {activity.items.map((item, index) => (
              <span
                // Items of one call never reorder.
                key={index}
                className={`call-timeline__mark call-timeline__mark--${item.kind}`}
                style={{
                  left: `${Math.min(100, Math.max(0, ((item.time - record.startedAt) / span) * 100))}%`,
                }}
              />
            ))}
          </div>
          <ol className="call-timeline">
            {activity.items.map((item, index) => (
              <li key={index} className="call-timeline__item">
                <span className="call-timeline__time mono">
                  +{formatCount(Math.max(0, Math.round(item.time - record.startedAt)))} ms
                </span>
                <span className={`call-timeline__kind call-timeline__kind--${item.kind}`}>
                  {KIND_LABELS[item.kind]}
                </span>
                <span className="call-timeline__text mono">{revealInvisible(itemText(item))}</span>
              </li>
            ))}
          </ol>
        </>
      )}
      {activity.dropped > 0 ? (
        <p className="muted">
          {formatCount(activity.dropped)} more left out to keep the record bounded.
        </p>
      ) : null}
    </section>
  );
}

/** The image's data: inline (live), or fetched by file name (a recording). */
function useImageData(
  image: CallImage | undefined,
  loadImage: LoadImage | undefined,
): {mimeType: string; data: string} | undefined | 'loading' | 'missing' {
  const [loaded, setLoaded] = useState<{
    file: string;
    value: {mimeType: string; data: string} | undefined;
  }>();
  const file = image?.data === '' ? image.file : undefined;
  useEffect(() => {
    if (file === undefined || loadImage === undefined) {
      return;
    }
    let live = true;
    loadImage(file).then(
      value => live && setLoaded({file, value}),
      () => live && setLoaded({file, value: undefined}),
    );
    return () => {
      live = false;
    };
  }, [file, loadImage]);
  if (!image) {
    return undefined;
  }
  if (image.data !== '') {
    return image;
  }
  if (file === undefined || loadImage === undefined) {
    return 'missing';
  }
  if (loaded?.file !== file) {
    return 'loading';
  }
  return loaded.value ?? 'missing';
}

function CallScreens(props: {
  record: CallRecord;
  screenshots: NonNullable<CallRecord['screenshots']>;
  loadImage: LoadImage | undefined;
}): React.JSX.Element {
  const {record, screenshots, loadImage} = props;
  return (
    <section aria-label="Page before and after" className="call-screens">
      <h3>Before and after</h3>
      <div className="call-screens__pair">
        <CallScreen
          label="Before"
          image={screenshots.before}
          loadImage={loadImage}
          record={record}
        />
        <CallScreen
          label="After"
          image={screenshots.after}
          loadImage={loadImage}
          record={record}
          outline
        />
      </div>
    </section>
  );
}

function CallScreen(props: {
  label: string;
  image: CallImage | undefined;
  loadImage: LoadImage | undefined;
  record: CallRecord;
  outline?: boolean;
}): React.JSX.Element {
  const {label, image, record} = props;
  const data = useImageData(image, props.loadImage);
  const acted = record.actedOn;
  const viewport = image?.viewport;
  const showOutline =
    props.outline === true &&
    acted !== undefined &&
    viewport !== undefined &&
    viewport.width > 0 &&
    viewport.height > 0 &&
    typeof data === 'object';
  return (
    <figure className="call-screens__figure" data-testid={`call-screen-${label.toLowerCase()}`}>
      <figcaption className="muted">{label}</figcaption>
      {data === undefined ? (
        <p className="muted">No image.</p>
      ) : data === 'loading' ? (
        <p className="muted">Loading…</p>
      ) : data === 'missing' ? (
        <p className="muted">Not in this file (images are kept beside recordings on the server).</p>
      ) : (
        <div className="call-screens__frame">
          <DataImage mimeType={data.mimeType} data={data.data} alt={`${label} ${record.tool}`} />
          {showOutline ? (
            <div
              className="call-screens__outline"
              data-testid="call-screen-outline"
              title={`The element ${record.tool} acted on`}
              style={{
                left: `${(acted.rect.x / viewport.width) * 100}%`,
                top: `${(acted.rect.y / viewport.height) * 100}%`,
                width: `${(acted.rect.width / viewport.width) * 100}%`,
                height: `${(acted.rect.height / viewport.height) * 100}%`,
              }}
            />
          ) : null}
        </div>
      )}
    </figure>
  );
}

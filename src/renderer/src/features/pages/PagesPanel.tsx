/** Open pages (which one is selected) and a live view of the selected or chosen page. */
import {EmptyState} from '../../ui/EmptyState.js';
import {imageDataUrl} from '../../ui/ImageView.js';
import {type PagesModel, usePagesModel} from './usePagesModel.js';
import './pages.css';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {boxStyle} from '../../ui/boxStyle.js';

export function PagesPanel(): React.JSX.Element {
  const model = usePagesModel();
  return (
    <div className="pages-panel">
      <section className="pages-panel__list" aria-labelledby="pages-heading">
        <h2 id="pages-heading">Open pages</h2>
        {model.pages.length === 0 ? (
          <EmptyState title="No pages yet">
            {model.browserState === 'idle'
              ? 'The browser starts with the first tool call. Ask your agent to open a page, or run new_page in Run.'
              : 'Open one with new_page (from your agent or the Run panel).'}
          </EmptyState>
        ) : (
          <PageList model={model} />
        )}
      </section>
      <section className="pages-panel__live" aria-labelledby="live-heading">
        <h2 id="live-heading">
          Live view
          <span className="muted">
            {' '}
            {model.watchPageId === undefined
              ? '· following the selected page'
              : `· page ${model.watchPageId}`}
          </span>
        </h2>
        <LiveView model={model} />
      </section>
    </div>
  );
}

function PageList(props: {model: PagesModel}): React.JSX.Element {
  const {model} = props;
  return (
    <ul className="page-list">
      {model.pages.map(page => {
        const watched = model.watchPageId === page.id;
        return (
          <li
            key={page.id}
            className={`page-item${page.selected ? ' page-item--selected' : ''}`}
            data-page-id={page.id}
          >
            <div className="page-item__main">
              <span className="page-item__id mono">{page.id}</span>
              <span className="page-item__title">{revealInvisible(page.title) || 'Untitled'}</span>
              {page.selected ? <span className="badge badge--selected">selected</span> : null}
              {page.isolatedContext ? (
                <span className="badge" title="Isolated browser context">
                  {revealInvisible(page.isolatedContext)}
                </span>
              ) : null}
            </div>
            <div className="page-item__url mono muted">{revealInvisible(page.url)}</div>
            <button
              type="button"
              aria-pressed={watched}
              aria-label={
                watched ? `Stop watching page ${page.id}` : `Watch page ${page.id} in the live view`
              }
              onClick={() => model.watch(watched ? undefined : page.id)}
            >
              {watched ? 'Follow selected' : 'Watch'}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function LiveView(props: {model: PagesModel}): React.JSX.Element {
  const {frame, outline, liveError} = props.model;
  if (liveError) {
    return <p className="notice notice--error">{liveError}</p>;
  }
  const url = frame ? imageDataUrl(frame.mimeType, frame.data) : undefined;
  if (!frame || !url) {
    return (
      <div className="live-view live-view--empty">
        <p className="muted">
          No frames yet. The live view shows the selected page as soon as one is open; it updates
          when the page changes.
        </p>
      </div>
    );
  }
  return (
    <div className="live-view" data-testid="live-view">
      <div className="live-view__frame">
        <img src={url} alt={`Live view of page ${frame.pageId}`} />
        {outline ? (
          <div
            key={outline.key}
            className="live-view__outline"
            data-testid="acted-on-outline"
            title={`Last acted on by ${outline.tool}`}
            style={boxStyle(outline)}
          />
        ) : null}
      </div>
    </div>
  );
}

/**
 * Open pages grouped by the client that opened them (who has each selected; the Run panel's own
 * selection), and a live view of the page selected last or of a chosen one.
 */
import {EmptyState} from '../../ui/EmptyState.js';
import {imageDataUrl} from '../../ui/DataImage.js';
import {ClientBadge} from '../../ui/ClientBadge.js';
import type {PageRowModel} from './pagesModel.js';
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
              ? '· following the page selected last'
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
    <div className="page-groups">
      {model.groups.map(group => (
        <section
          key={group.owner?.id ?? 'unowned'}
          className="page-group"
          aria-label={
            group.owner
              ? `Pages opened by ${revealInvisible(group.owner.name)}`
              : 'Pages opened by you or the browser'
          }
          data-owner-id={group.owner?.id ?? ''}
        >
          <h3 className="page-group__heading">
            {group.owner ? (
              <ClientBadge
                client={group.owner}
                note={[group.owner.isolated ? 'own context' : '', group.gone ? 'session ended' : '']
                  .filter(Boolean)
                  .join(' · ')}
              />
            ) : (
              <span className="muted">Opened by you or the browser</span>
            )}
          </h3>
          <ul className="page-list">
            {group.pages.map(page => (
              <PageItem key={page.id} page={page} model={model} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function PageItem(props: {page: PageRowModel; model: PagesModel}): React.JSX.Element {
  const {page, model} = props;
  const watched = model.watchPageId === page.id;
  return (
    <li
      className={`page-item${page.selected ? ' page-item--selected' : ''}`}
      data-page-id={page.id}
    >
      <div className="page-item__main">
        <span className="page-item__id mono">{page.id}</span>
        <span className="page-item__title">{revealInvisible(page.title) || 'Untitled'}</span>
        {page.selected ? (
          <span className="badge badge--selected" title="Run panel calls without pageId act here">
            selected in Run
          </span>
        ) : null}
        {page.isolatedContext ? (
          <span className="badge" title="Isolated browser context">
            {revealInvisible(page.isolatedContext)}
          </span>
        ) : null}
      </div>
      <div className="page-item__url mono muted">{revealInvisible(page.url)}</div>
      {page.selectedByClients.length > 0 ? (
        <div className="page-item__selectors">
          <span className="muted">selected by</span>
          {page.selectedByClients.map(client => (
            <ClientBadge key={client.id} client={client} />
          ))}
        </div>
      ) : null}
      <button
        type="button"
        aria-pressed={watched}
        aria-label={
          watched ? `Stop watching page ${page.id}` : `Watch page ${page.id} in the live view`
        }
        onClick={() => model.watch(watched ? undefined : page.id)}
      >
        {watched ? 'Follow last selected' : 'Watch'}
      </button>
    </li>
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
          No frames yet. The live view shows the page selected last (by an agent or the Run panel)
          as soon as one is open; it updates when the page changes.
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

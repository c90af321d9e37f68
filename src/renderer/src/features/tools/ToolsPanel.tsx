/**
 * Tools and categories: one switch per category (applies at once; connected clients get
 * tools/list_changed), each tool with its read-only badge, description, parameters and cost, and
 * the exact tools/list a client receives.
 */
import {EmptyState} from '../../ui/EmptyState.js';
import {formatCount} from '../../ui/format.js';
import {toolParams} from './schemaParams.js';
import type {SwitchCardModel} from './toolsModel.js';
import {type ToolsModel, useToolsModel} from './useToolsModel.js';
import type {ToolInfo} from '../../../../shared/protocol.js';
import './tools.css';

export function ToolsPanel(): React.JSX.Element {
  const model = useToolsModel();
  if (!model.ready) {
    return <EmptyState title="Loading tools…">Waiting for the server to answer.</EmptyState>;
  }
  return (
    <div className="panel-body tools-panel">
      <div className="tools-panel__summary" role="status">
        <strong>{model.enabledTools}</strong> tools offered to clients ·{' '}
        {formatCount(model.totalChars)} characters · about {formatCount(model.totalTokens)} tokens
        {model.slim ? (
          <span className="badge badge--slim" title="Started with --slim">
            Slim mode
          </span>
        ) : null}
      </div>
      {model.slim ? (
        <p className="notice">
          Slim mode (<code>--slim</code>): clients see only the three slim tools below. Categories
          do not apply; restart without <code>--slim</code> to use them.
        </p>
      ) : (
        <p className="muted">
          A switch applies at once: every connected client gets{' '}
          <code>notifications/tools/list_changed</code> and sees the new list.
        </p>
      )}
      {model.error ? (
        <p className="notice notice--error" role="alert">
          {model.error}
        </p>
      ) : null}
      {model.slim ? (
        <ToolList tools={model.categoryCards.flatMap(card => card.tools)} />
      ) : (
        <>
          {model.categoryCards.map(card => (
            <SwitchCard key={card.target.id} card={card} flip={model.flip} />
          ))}
          <h2 className="tools-panel__flags-heading">Feature flags</h2>
          <p className="muted">
            Flags that gate single tools on top of their category, as in chrome-devtools-mcp.
          </p>
          {model.conditionCards.map(card => (
            <SwitchCard key={card.target.id} card={card} flip={model.flip} />
          ))}
        </>
      )}
      <ToolsListSection model={model} />
    </div>
  );
}

/** A category or a feature flag: its switch, what it costs, and its tools. */
function SwitchCard(props: {card: SwitchCardModel; flip: ToolsModel['flip']}): React.JSX.Element {
  const {card, flip} = props;
  const {target} = card;
  const headingId = `${target.kind}-${target.id}`;
  const marker =
    target.kind === 'category' ? {'data-category': target.id} : {'data-condition': target.id};
  return (
    <section className="card category" aria-labelledby={headingId} {...marker}>
      <header className="category__header">
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={card.enabled}
            disabled={!card.switchable}
            // Not disabled while the change is in flight: that would drop keyboard focus.
            aria-busy={card.pending}
            onChange={event => {
              if (!card.pending && card.switchable) {
                flip(target, event.target.checked);
              }
            }}
          />
          <span className="switch__track" aria-hidden="true" />
          <span className="category__label" id={headingId}>
            {card.label}
          </span>
        </label>
        <span className="muted category__meta">
          {card.tools.length === 0
            ? 'no tools'
            : `${card.enabledCount} of ${card.tools.length} tools on`}
          {' · '}
          <code>{card.flagHint}</code>
          {card.note}
        </span>
      </header>
      {card.effect !== undefined ? <p className="muted category__effect">{card.effect}</p> : null}
      {card.tools.length > 0 ? <ToolList tools={card.tools} /> : null}
    </section>
  );
}

function ToolList(props: {tools: readonly ToolInfo[]}): React.JSX.Element {
  return (
    <ul className="tool-list">
      {props.tools.map(tool => (
        <ToolItem key={tool.name} tool={tool} />
      ))}
    </ul>
  );
}

function ToolItem(props: {tool: ToolInfo}): React.JSX.Element {
  const {tool} = props;
  const params = toolParams(tool.inputSchema);
  const [firstLine = '', ...moreLines] = tool.description.split('\n');
  return (
    <li className={`tool${tool.enabled ? '' : ' tool--off'}`} data-tool={tool.name}>
      <details>
        <summary>
          <span className="tool__name mono">{tool.name}</span>
          {tool.readOnly ? <span className="badge badge--readonly">read-only</span> : null}
          {tool.enabled ? null : <span className="badge">off</span>}
          <span className="tool__cost muted">
            {formatCount(tool.definitionChars)} chars · ~{formatCount(tool.estimatedTokens)} tokens
          </span>
          <span className="tool__summary muted">{firstLine}</span>
        </summary>
        <div className="tool__body">
          {tool.disabledReason ? <p className="notice">{tool.disabledReason}</p> : null}
          {/* The summary line already shows the first line; the rest only when there is more. */}
          {moreLines.length > 0 ? (
            <p className="tool__description">{moreLines.join('\n').trim()}</p>
          ) : null}
          {params.length === 0 ? (
            <p className="muted">No parameters.</p>
          ) : (
            <table className="params">
              <caption className="visually-hidden">Parameters of {tool.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Parameter</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {params.map(param => (
                  <tr key={param.name}>
                    <td className="mono">
                      {param.name}
                      {param.required ? (
                        <span className="params__required" title="required">
                          {' '}
                          *
                        </span>
                      ) : null}
                    </td>
                    <td className="mono">{param.type}</td>
                    <td>{param.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </details>
    </li>
  );
}

function ToolsListSection(props: {model: ToolsModel}): React.JSX.Element {
  const {model} = props;
  return (
    <section className="tools-list-size" aria-labelledby="tools-list-heading">
      <h2 id="tools-list-heading">What a client receives</h2>
      <button
        type="button"
        aria-expanded={model.toolsListOpen}
        onClick={() => model.setToolsListOpen(!model.toolsListOpen)}
      >
        {model.toolsListOpen ? 'Hide tools/list' : 'Show tools/list'}
      </button>
      {model.toolsListOpen ? (
        model.toolsListError ? (
          <p className="notice notice--error">{model.toolsListError}</p>
        ) : model.toolsList ? (
          <>
            <p className="muted" role="status">
              {model.toolsList.toolCount} tools · {formatCount(model.toolsList.chars)} characters ·
              about {formatCount(model.toolsList.estimatedTokens)} tokens
            </p>
            <pre
              className="code-block"
              tabIndex={0}
              aria-label="tools/list result"
              data-testid="tools-list"
            >
              {model.toolsList.json}
            </pre>
          </>
        ) : (
          <p className="muted">Loading…</p>
        )
      ) : null}
    </section>
  );
}

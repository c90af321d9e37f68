/**
 * WAI-ARIA tabs: one tab stop; arrow keys, Home and End move between tabs and open them.
 */
import {useRef} from 'react';
import type {PanelDefinition} from './panels.js';
import type {PanelId} from '../ui/panelIds.js';
import {useTabAttention, useTabBadge} from './useFrameModel.js';

export function Tabs(props: {
  panels: readonly PanelDefinition[];
  active: PanelId;
  onSelect: (id: PanelId) => void;
}): React.JSX.Element {
  const listRef = useRef<HTMLDivElement>(null);
  const {panels, active, onSelect} = props;
  const move = (to: number): void => {
    const count = panels.length;
    const target = panels[((to % count) + count) % count];
    if (target) {
      onSelect(target.id);
      listRef.current?.querySelector<HTMLButtonElement>(`#tab-${target.id}`)?.focus();
    }
  };
  const onKeyDown = (event: React.KeyboardEvent): void => {
    const index = panels.findIndex(panel => panel.id === active);
    const keys: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: panels.length - 1,
    };
    const to = keys[event.key];
    if (to !== undefined) {
      event.preventDefault();
      move(to);
    }
  };
  return (
    <div
      className="tabs"
      role="tablist"
      aria-label="Inspector panels"
      ref={listRef}
      onKeyDown={onKeyDown}
    >
      {panels.map(panel => (
        <Tab
          key={panel.id}
          panel={panel}
          selected={panel.id === active}
          onSelect={() => onSelect(panel.id)}
        />
      ))}
    </div>
  );
}

function Tab(props: {
  panel: PanelDefinition;
  selected: boolean;
  onSelect: () => void;
}): React.JSX.Element {
  const {panel, selected} = props;
  const badge = useTabBadge(panel);
  // The open tab's panel is in view already: only another tab asks.
  const asks = useTabAttention(panel) && !selected;
  return (
    <button
      type="button"
      role="tab"
      id={`tab-${panel.id}`}
      aria-selected={selected}
      aria-controls={`panel-${panel.id}`}
      tabIndex={selected ? 0 : -1}
      className={`tabs__tab${asks ? ' tabs__tab--attention' : ''}`}
      data-attention={asks}
      onClick={props.onSelect}
      // Fetch the panel's code as soon as the user heads for its tab.
      onPointerEnter={panel.preload}
      onFocus={panel.preload}
    >
      {panel.label}
      {badge === undefined ? null : (
        <span
          className={`tabs__badge${asks ? ' tabs__badge--attention' : ''}`}
          aria-label={`(${badge})`}
        >
          {badge}
        </span>
      )}
    </button>
  );
}

/**
 * Long option lists (a country <select>, a listbox of hundreds) are shown as a window around the
 * selected or active option, with a line in place of each run of hidden options that says how
 * many there are and how to see them; short lists are shown whole.
 */
import type {TreeNode} from './axTree.js';

/** Lists up to this long are shown whole. */
const SHOW_ALL_OPTIONS_UP_TO = 30;
/** Options shown from a longer list (plus any selected, focused or active one). */
const OPTION_WINDOW = 20;
/** Options shown before the first selected/active one, for context. */
const LEAD = 3;

export interface OptionGap {
  count: number;
  /** The listbox or combobox the options belong to. */
  owner: TreeNode;
}

export interface OptionWindows {
  hidden: Set<TreeNode>;
  /** The first hidden option of each run → what to print in place of the run. */
  gaps: Map<TreeNode, OptionGap>;
}

const OWNERS = new Set(['listbox', 'combobox']);

function isAnchor(option: TreeNode): boolean {
  return (
    option.properties.get('selected')?.value === true ||
    option.properties.get('focused')?.value === true ||
    option.active
  );
}

function collectOptions(owner: TreeNode, shown: ReadonlySet<TreeNode>): TreeNode[] {
  const options: TreeNode[] = [];
  const walk = (node: TreeNode): void => {
    for (const child of node.children) {
      // A listbox inside a combobox is windowed on its own.
      if (child.role === 'listbox') {
        continue;
      }
      if (child.role === 'option' && shown.has(child)) {
        options.push(child);
        continue;
      }
      walk(child);
    }
  };
  walk(owner);
  return options;
}

export function windowOptions(root: TreeNode, shown: ReadonlySet<TreeNode>): OptionWindows {
  const windows: OptionWindows = {hidden: new Set(), gaps: new Map()};
  const visit = (node: TreeNode): void => {
    if (OWNERS.has(node.role) && shown.has(node)) {
      const options = collectOptions(node, shown);
      if (options.length > SHOW_ALL_OPTIONS_UP_TO) {
        hideOutsideWindow(node, options, windows);
      }
    }
    for (const child of node.children) {
      visit(child);
    }
  };
  visit(root);
  return windows;
}

function hideOutsideWindow(owner: TreeNode, options: TreeNode[], windows: OptionWindows): void {
  const anchors = options.flatMap((option, index) => (isAnchor(option) ? [index] : []));
  const first = anchors[0] ?? 0;
  const start = Math.max(0, Math.min(first - LEAD, options.length - OPTION_WINDOW));
  let run: {first: TreeNode; count: number} | undefined;
  options.forEach((option, index) => {
    const keep = (index >= start && index < start + OPTION_WINDOW) || anchors.includes(index);
    if (keep) {
      run = undefined;
      return;
    }
    windows.hidden.add(option);
    if (run) {
      run.count++;
      const gap = windows.gaps.get(run.first);
      if (gap) {
        gap.count = run.count;
      }
    } else {
      run = {first: option, count: 1};
      windows.gaps.set(option, {count: 1, owner});
    }
  });
}

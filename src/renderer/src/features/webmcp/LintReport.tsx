/**
 * The doctor's authoring lint: findings grouped per tool (and frame), each with its fix. Tool
 * names, messages and fixes quote page text, so everything renders as text (React escapes it) with
 * invisible characters revealed.
 */
import type {WebMcpLintFinding} from '../../../../shared/protocol.js';
import {revealInvisible} from './webmcpDisplay.js';

interface ToolFindings {
  key: string;
  toolName: string;
  frameUrl: string | undefined;
  findings: WebMcpLintFinding[];
}

function groupByTool(findings: readonly WebMcpLintFinding[]): ToolFindings[] {
  const groups = new Map<string, ToolFindings>();
  for (const finding of findings) {
    const key = `${finding.frameId}|${finding.toolName}`;
    let group = groups.get(key);
    if (!group) {
      group = {key, toolName: finding.toolName, frameUrl: finding.frameUrl, findings: []};
      groups.set(key, group);
    }
    group.findings.push(finding);
  }
  return [...groups.values()];
}

export function LintReport(props: {findings: readonly WebMcpLintFinding[]}): React.JSX.Element {
  const groups = groupByTool(props.findings);
  return (
    <section className="webmcp-lint" aria-label="Authoring lint" data-testid="webmcp-lint">
      <h3>
        Authoring lint{' '}
        <span className="muted">
          {props.findings.length === 0
            ? '· no findings'
            : `· ${props.findings.length} finding${props.findings.length === 1 ? '' : 's'} in ${groups.length} tool${groups.length === 1 ? '' : 's'}`}
        </span>
      </h3>
      {groups.map(group => (
        <div key={group.key} className="webmcp-lint__tool" data-lint-tool={group.toolName}>
          <p className="webmcp-lint__name">
            <span className="mono">{revealInvisible(group.toolName)}</span>
            {group.frameUrl === undefined ? null : (
              <span className="muted"> · iframe {revealInvisible(group.frameUrl)}</span>
            )}
          </p>
          <ul>
            {group.findings.map((finding, index) => (
              <li key={index} data-lint={finding.code}>
                <p>{revealInvisible(finding.message)}</p>
                <p className="muted">Fix: {revealInvisible(finding.fix)}</p>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

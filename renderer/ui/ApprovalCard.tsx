import { useState } from 'react';
import type { ToolCallView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { toolLabel, toolSource, toolTitle } from './toolNames.ts';

type Decision = 'once' | 'chat' | 'always' | 'deny';

const DONE_TEXT: Record<Exclude<NonNullable<ToolCallView['approval']>['decision'], 'pending'>, string> = {
  once: 'Allowed once',
  chat: 'Allowed for this chat',
  always: 'Always allowed',
  deny: 'Not run',
};

/**
 * Consent for a tool that can change things (architecture §5, §11), inside its tool card: what it
 * will run with, and Allow once / Allow for this chat / Always / Deny. Once decided, one line
 * says what was decided and by whom.
 */
export function ApprovalCard({ turnId, tool }: { turnId: string; tool: ToolCallView }) {
  const approveTool = useApp((s) => s.approveTool);
  const [sent, setSent] = useState<Decision | null>(null);
  const approval = tool.approval;
  if (!approval) return null;
  if (approval.decision !== 'pending') {
    const who = approval.by === 'policy' ? ' (by your settings)' : approval.by === 'flag' ? ' (by a command-line flag)' : '';
    return (
      <p className={`approval-outcome ${approval.decision === 'deny' ? 'denied' : 'allowed'}`}>
        {DONE_TEXT[approval.decision]}
        {who}
        {approval.decision === 'deny' && approval.reason ? `: ${approval.reason}` : ''}
      </p>
    );
  }
  const answer = (decision: Decision) => {
    setSent(decision);
    void approveTool(turnId, tool.id, decision);
  };
  const args = JSON.stringify(tool.arguments, null, 2);
  return (
    <section className="approval-card" role="group" aria-label={`Approve ${toolLabel(tool.name, tool.title, tool.server)}`}>
      <p>
        <strong>{toolTitle(tool.name, tool.title)}</strong> ({tool.server ?? toolSource(tool.name)}
        {tool.serverTitle ? `, which calls itself “${tool.serverTitle}”` : ''}, <code>{tool.name}</code>
        {tool.tool !== undefined && (
          <>
            {' '}
            — the server's own name: <code>{tool.tool}</code>
          </>
        )}
        ){' '}
        {/* One account of the tool: a read-only claim from a server not trusted is said as what it is, not beside "can change things". */}
        {approval.claim === 'read-only' ? 'says it only reads, but that is its server’s claim and the server is not trusted.' : 'can change things.'} Run it with these arguments?
      </p>
      {approval.claim === 'read-only' && (
        <p className="muted small-text">To let this server’s read-only tools run without asking, mark it trusted in Settings → MCP servers.</p>
      )}
      <pre aria-label="Arguments">{args === '{}' ? '(no arguments)' : args}</pre>
      <div className="approval-buttons">
        <button type="button" className="primary" disabled={sent !== null} onClick={() => answer('once')}>
          Allow once
        </button>
        <button type="button" disabled={sent !== null} onClick={() => answer('chat')}>
          Allow for this chat
        </button>
        <button type="button" disabled={sent !== null} onClick={() => answer('always')}>
          Always
        </button>
        <button type="button" className="danger" disabled={sent !== null} onClick={() => answer('deny')}>
          Deny
        </button>
      </div>
    </section>
  );
}

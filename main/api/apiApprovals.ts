// Tool approval over the API (architecture §5, §11): the engine emits `tool_approval` pending on the
// turn's chat events, the renderer's approval card answers with `chat:approveTool`, and the
// turn goes on. Standing policy comes from Settings (toolApproval); "always" is stored there.
import type { ToolApprovalDecision } from '../../common/events.ts';
import { PolicyApprover, type ApprovalRequest } from '../chat/toolApproval.ts';
import type { ApiDeps } from './apiHandlers.ts';

type Answer = Exclude<ToolApprovalDecision, 'pending'>;

type ApiApprovals = {
  approver: PolicyApprover;
  /** The turn now running on a conversation (set by chat:send, cleared when it ends). */
  bind(conversationId: string, turnId: string): () => void;
  /** A person's answer; false when no such question is waiting. */
  answer(turnId: string, callId: string, decision: Answer): boolean;
};

export function apiApprovals(deps: ApiDeps): ApiApprovals {
  const turnOf = new Map<string, string>();
  const waiting = new Map<string, (decision: Answer) => void>();
  const key = (turnId: string, callId: string) => `${turnId}\u0000${callId}`;

  const ask = (request: ApprovalRequest, signal: AbortSignal) =>
    new Promise<Answer>((resolve, reject) => {
      const turnId = turnOf.get(request.conversationId);
      if (!turnId) return resolve('deny');
      const k = key(turnId, request.callId);
      const onAbort = () => {
        waiting.delete(k);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      waiting.set(k, (decision) => {
        signal.removeEventListener('abort', onAbort);
        waiting.delete(k);
        resolve(decision);
      });
    });

  const approver = new PolicyApprover({
    policy: () => deps.services.settings.current().toolApproval,
    ask,
    remember: async (name) => {
      const current = deps.settingsStore.current().toolApproval;
      await deps.settingsStore.update({ toolApproval: { ...current, [name]: 'allow' } });
    },
  });

  return {
    approver,
    bind(conversationId, turnId) {
      turnOf.set(conversationId, turnId);
      return () => {
        if (turnOf.get(conversationId) === turnId) turnOf.delete(conversationId);
      };
    },
    answer(turnId, callId, decision) {
      const resolve = waiting.get(key(turnId, callId));
      resolve?.(decision);
      return resolve !== undefined;
    },
  };
}

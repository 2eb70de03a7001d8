// chat:send and chat:cancel: a turn runs in the background and reports through `chat:event`;
// chat:context: the next request's size against the model's window (the composer's meter).
import type { ChatEvent } from '../../common/events.ts';
import type { ModelChoice } from '../chat/chatEngine.ts';
import { newConversationId } from '../chat/conversationStore.ts';
import type { LiveTurns } from '../chat/liveTurns.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { ok, providerFailure, type IpcHandlers } from './ipcRouter.ts';
import { boundText } from '../scrubSecrets.ts';
import { apiApprovals } from './apiApprovals.ts';
import { errorMessage } from '../errors.ts';

export function chatHandlers(deps: ApiDeps, live: LiveTurns): { handlers: Pick<IpcHandlers, 'chat:send' | 'chat:cancel' | 'chat:approveTool' | 'chat:context'>; close(): void } {
  const { services } = deps;
  const turns = new Map<string, AbortController>();
  const approvals = apiApprovals(deps);
  return {
    close: () => {
      for (const c of turns.values()) c.abort();
    },
    handlers: {
      'chat:send': async (request) => {
        let chat: ModelChoice | undefined;
        let helper: ModelChoice | undefined;
        let unsent: { code: string; message: string } | undefined;
        try {
          const selection = await services.models.selectionOrDefault(request.model);
          chat = await services.models.choiceFor(selection);
          helper = await services.models.helperFor(chat);
        } catch (error) {
          // No model to send to (the server down, none named): the message is stored and listed all the same.
          const { code, message } = providerFailure(error);
          unsent = { code, message };
        }
        const conversationId = request.conversationId ?? newConversationId();
        const controller = new AbortController();
        turns.set(request.turnId, controller);
        // A page that reloads or switches away mid-answer picks the turn up again from `live`.
        live.start(conversationId, { turnId: request.turnId, text: request.text, attachmentIds: request.attachmentIds, createdAt: new Date().toISOString() });
        let seq = 0;
        const emit = (event: ChatEvent) => {
          live.record(conversationId, request.turnId, event);
          deps.emit('chat:event', { conversationId, turnId: request.turnId, seq: seq++, event });
        };
        const unbind = approvals.bind(conversationId, request.turnId);
        const turn = {
          conversationId,
          createIfMissing: request.conversationId === undefined,
          replaceLastTurn: request.replaceLastTurn,
          ...(request.replaceFrom ? { replaceFrom: request.replaceFrom } : {}),
          text: request.text,
          userMessageId: request.turnId,
          ...(request.marks ? { marks: request.marks } : {}),
          ...(request.names ? { names: request.names } : {}),
          ...(request.tools ? { tools: request.tools } : {}),
        };
        const running = chat
          ? services.engine.runTurn(
              {
                ...turn,
                attachments: request.attachmentIds.map((attachmentId) => ({
                  attachmentId,
                  ...(request.shown?.[attachmentId]?.length ? { shown: request.shown[attachmentId] } : {}),
                  ...(request.sendAnyway?.includes(attachmentId) ? { sendAnyway: true as const } : {}),
                })),
                chat,
                helper,
                signal: controller.signal,
                approver: approvals.approver,
                ...(chat.capabilities.thinking === 'yes' ? { think: true } : {}),
              },
              emit,
            )
          : services.engine.recordUnsent({ ...turn, attachmentIds: request.attachmentIds }, unsent ?? { code: 'internal', message: 'No model to send to.' }, emit);
        void running
          .catch((error: unknown) => {
            emit({ type: 'error', code: 'internal', message: boundText(services.scrubSecrets(errorMessage(error))) });
            emit({ type: 'done', conversationId, text: '' });
          })
          .finally(() => {
            turns.delete(request.turnId);
            unbind();
          });
        return ok({ conversationId, turnId: request.turnId });
      },

      'chat:approveTool': async ({ turnId, callId, decision }) => ok({ answered: approvals.answer(turnId, callId, decision) }),

      'chat:context': async ({ conversationId, text, attachmentIds, model, tools }) => {
        try {
          // The chat model, and the model its images go to (itself, or its vision helper), as a send picks them.
          const { chat, seer } = await services.models.routeFor(model, conversationId);
          return ok(await services.engine.contextEstimate({ ...(conversationId ? { conversationId } : {}), text, attachmentIds, chat, ...(seer ? { seer } : {}), ...(tools ? { tools } : {}) }));
        } catch (error) {
          return providerFailure(error);
        }
      },
      'chat:cancel': async ({ turnId }) => {
        const controller = turns.get(turnId);
        controller?.abort();
        return ok({ cancelled: controller !== undefined });
      },
    },
  };
}

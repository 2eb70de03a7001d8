// The preload (architecture §8): exposes exactly `GlanceApi` as `window.glance` — one function per
// channel of common/ipc.ts and nothing generic, so a page cannot name a channel itself.
// Bundled to CommonJS (`npm run build:preload`); it requires only `electron`.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { GlanceApi, IpcEventPayload, IpcRequestInput, IpcResult, IpcValue } from '../common/ipc.ts';
import { PATH_FOR_FILE_METHOD, type EventChannel, type InvokeChannel } from '../common/ipcChannels.ts';

function invoke<C extends InvokeChannel>(channel: C) {
  return async (request: IpcRequestInput<C> | Record<string, never> = {}): Promise<IpcResult<IpcValue<C>>> => {
    try {
      return (await ipcRenderer.invoke(channel, request)) as IpcResult<IpcValue<C>>;
    } catch (error) {
      // Reaching main failed (no handler, payload not cloneable): still an answer, never a throw.
      const message = typeof (error as { message?: unknown } | null)?.message === 'string' ? (error as Error).message : String(error);
      return { ok: false, code: 'ipc-failed', message: `${channel}: ${message}` };
    }
  };
}

function subscribe<E extends EventChannel>(channel: E) {
  return (listener: (payload: IpcEventPayload<E>) => void): (() => void) => {
    if (typeof listener !== 'function') throw new TypeError(`${channel}: the listener must be a function`);
    // The IpcRendererEvent stays here: it exposes the sender to whoever holds it.
    const forward = (_event: unknown, payload: IpcEventPayload<E>) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => void ipcRenderer.removeListener(channel, forward);
  };
}

const api: GlanceApi = {
  chatSend: invoke('chat:send'),
  chatCancel: invoke('chat:cancel'),
  chatApproveTool: invoke('chat:approveTool'),
  chatContext: invoke('chat:context'),
  attachmentsAdd: invoke('attachments:add'),
  attachmentsThumbnail: invoke('attachments:thumbnail'),
  attachmentsCrop: invoke('attachments:crop'),
  attachmentsPreview: invoke('attachments:preview'),
  attachmentsOriginal: invoke('attachments:original'),
  conversationsList: invoke('conversations:list'),
  conversationsGet: invoke('conversations:get'),
  conversationsRename: invoke('conversations:rename'),
  conversationsDelete: invoke('conversations:delete'),
  conversationsSearch: invoke('conversations:search'),
  conversationsSetTools: invoke('conversations:setTools'),
  conversationsSwitchVersion: invoke('conversations:switchVersion'),
  draftsList: invoke('drafts:list'),
  draftsSet: invoke('drafts:set'),
  modelsList: invoke('models:list'),
  modelsPull: invoke('models:pull'),
  modelsCancelPull: invoke('models:cancelPull'),
  modelsRoute: invoke('models:route'),
  settingsGet: invoke('settings:get'),
  settingsSet: invoke('settings:set'),
  secretsSet: invoke('secrets:set'),
  secretsStatus: invoke('secrets:status'),
  mcpStatus: invoke('mcp:status'),
  mcpRestart: invoke('mcp:restart'),
  mcpAnswer: invoke('mcp:answer'),
  mcpTools: invoke('mcp:tools'),
  mcpLog: invoke('mcp:log'),
  captureScreenshot: invoke('capture:screenshot'),
  appOpenMain: invoke('app:openMain'),
  appInfo: invoke('app:info'),
  appListening: invoke('app:listening'),
  onChatEvent: subscribe('chat:event'),
  onModelsPullProgress: subscribe('models:pullProgress'),
  onAttachmentsIncoming: subscribe('attachments:incoming'),
  onSettingsChanged: subscribe('settings:changed'),
  onMcpChanged: subscribe('mcp:changed'),
  onMcpQuestion: subscribe('mcp:question'),
  onAppNotice: subscribe('app:notice'),
  onAppShowConversation: subscribe('app:showConversation'),
  // "" for a file that has no path on disk (a dragged-out browser image): send its bytes instead.
  [PATH_FOR_FILE_METHOD]: (file: unknown) => webUtils.getPathForFile(file as File),
};

contextBridge.exposeInMainWorld('glance', Object.freeze(api));

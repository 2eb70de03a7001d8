// The fixed list of IPC channel names and the API method each becomes. Kept apart from the
// zod schemas in ipc.ts so the preload bundle stays tiny (no zod in it); ipc.ts checks at
// compile time that its schemas cover exactly these channels.

/** Renderer → main calls (`ipcRenderer.invoke`), `domain:verb`. */
export const INVOKE_CHANNELS = [
  'chat:send',
  'chat:cancel',
  'chat:approveTool',
  'chat:context',
  'attachments:add',
  'attachments:thumbnail',
  'attachments:crop',
  'attachments:preview',
  'attachments:original',
  'conversations:list',
  'conversations:get',
  'conversations:rename',
  'conversations:delete',
  'conversations:search',
  'conversations:setTools',
  'conversations:switchVersion',
  'drafts:list',
  'drafts:set',
  'models:list',
  'models:pull',
  'models:cancelPull',
  'models:route',
  'settings:get',
  'settings:set',
  'secrets:set',
  'secrets:status',
  'mcp:status',
  'mcp:restart',
  'mcp:answer',
  'mcp:tools',
  'mcp:log',
  'capture:screenshot',
  'app:openMain',
  'app:info',
  'app:listening',
] as const;
export type InvokeChannel = (typeof INVOKE_CHANNELS)[number];

/** Main → renderer pushes (`webContents.send`). */
export const EVENT_CHANNELS = [
  'chat:event',
  'models:pullProgress',
  'attachments:incoming',
  'settings:changed',
  'mcp:changed',
  'mcp:question',
  'app:notice',
  'app:showConversation',
] as const;
export type EventChannel = (typeof EVENT_CHANNELS)[number];

export type InvokeMethodName<C extends string> = C extends `${infer D}:${infer V}` ? `${D}${Capitalize<V>}` : never;
export type EventMethodName<C extends string> = C extends `${infer D}:${infer V}` ? `on${Capitalize<D>}${Capitalize<V>}` : never;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "chat:send" → "chatSend". */
export function invokeMethodName<C extends InvokeChannel>(channel: C): InvokeMethodName<C> {
  const [domain, verb] = channel.split(':') as [string, string];
  return `${domain}${capitalize(verb)}` as InvokeMethodName<C>;
}

/** "chat:event" → "onChatEvent". */
export function eventMethodName<C extends EventChannel>(channel: C): EventMethodName<C> {
  const [domain, verb] = channel.split(':') as [string, string];
  return `on${capitalize(domain)}${capitalize(verb)}` as EventMethodName<C>;
}

/** Not an IPC channel: the preload's local helper for drops (`webUtils.getPathForFile`). */
export const PATH_FOR_FILE_METHOD = 'pathForFile';

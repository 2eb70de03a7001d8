// The one place IPC touches Electron: ipcMain.handle for each channel of the contract, the
// sender read from the frame that sent it, and typed pushes to windows.
import { BrowserWindow, type IpcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { EventChannel, IpcEventPayload } from '../../common/ipc.ts';
import { checkedEvent, type IpcRouter, type SenderInfo } from '../api/ipcRouter.ts';

function senderOf(event: IpcMainInvokeEvent): SenderInfo {
  const frame = event.senderFrame;
  return {
    url: frame?.url ?? '',
    // A top-level frame has no parent; iframes (there should be none) are refused.
    isMainFrame: frame !== null && frame !== undefined && frame.parent === null,
    windowId: BrowserWindow.fromWebContents(event.sender)?.id,
  };
}

/**
 * A page loads, and only later (its app code imported) subscribes to pushes: what is sent in
 * between is lost — a hotkey pressed just after launch, a conversation opened in a new window. So a
 * push to a page that has not said `app:listening` since it last started loading is held (the last
 * HELD_MAX of them) and delivered when it does.
 */
const listening = new WeakSet<WebContents>();
const held = new WeakMap<WebContents, { channel: EventChannel; payload: unknown }[]>();
const watched = new WeakSet<WebContents>();
const HELD_MAX = 50;

function deliver(contents: WebContents, channel: EventChannel, checked: unknown): void {
  if (contents.isDestroyed()) return;
  if (!watched.has(contents)) {
    watched.add(contents);
    // A reload (or a navigation of its own) starts the page over: it listens again when it says so.
    contents.on('did-start-loading', () => listening.delete(contents));
  }
  if (listening.has(contents)) {
    contents.send(channel, checked);
    return;
  }
  const queue = held.get(contents) ?? [];
  queue.push({ channel, payload: checked });
  if (queue.length > HELD_MAX) queue.shift();
  held.set(contents, queue);
}

function listens(contents: WebContents): void {
  listening.add(contents);
  const queue = held.get(contents) ?? [];
  held.delete(contents);
  for (const { channel, payload } of queue) if (!contents.isDestroyed()) contents.send(channel, payload);
}

/** Registers every channel; returns a function that removes them again. */
export function bindIpcRouter(ipcMain: IpcMain, router: IpcRouter): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, async (event, payload: unknown) => {
      const result = await router.handle(channel, senderOf(event), payload);
      // Only a trusted page's word counts (the router checked the sender).
      if (channel === 'app:listening' && result.ok) listens(event.sender);
      return result;
    });
  }
  return () => {
    for (const channel of router.channels) ipcMain.removeHandler(channel);
  };
}

export function sendEvent<E extends EventChannel>(contents: WebContents, channel: E, payload: IpcEventPayload<E>): void {
  deliver(contents, channel, checkedEvent(channel, payload));
}

export function broadcastEvent<E extends EventChannel>(channel: E, payload: IpcEventPayload<E>): void {
  const checked = checkedEvent(channel, payload);
  for (const window of BrowserWindow.getAllWindows()) deliver(window.webContents, channel, checked);
}

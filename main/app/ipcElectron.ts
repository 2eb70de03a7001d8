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

/** Registers every channel; returns a function that removes them again. */
export function bindIpcRouter(ipcMain: IpcMain, router: IpcRouter): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, (event, payload: unknown) => router.handle(channel, senderOf(event), payload));
  }
  return () => {
    for (const channel of router.channels) ipcMain.removeHandler(channel);
  };
}

export function sendEvent<E extends EventChannel>(contents: WebContents, channel: E, payload: IpcEventPayload<E>): void {
  if (!contents.isDestroyed()) contents.send(channel, checkedEvent(channel, payload));
}

export function broadcastEvent<E extends EventChannel>(channel: E, payload: IpcEventPayload<E>): void {
  const checked = checkedEvent(channel, payload);
  for (const window of BrowserWindow.getAllWindows()) {
    if (!window.webContents.isDestroyed()) window.webContents.send(channel, checked);
  }
}

/**
 * Preload (sandboxed): exposes `window.cairnBridge` — one named method per contract channel
 * an event subscription limited to contract events, and `pickFolder` (the folder dialog). No generic invoke, no ipcRenderer.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelNames, isEventName, type EventName } from '../../shared/contract';
import { ipcName, IPC_EVENT, IPC_PICK_FOLDER } from '../../shared/bridge';

const bridge: Record<string, unknown> = {};
for (const channel of channelNames) {
  bridge[channel] = (request: unknown, opId?: string) => ipcRenderer.invoke(ipcName(channel), request, opId);
}
bridge.on = (event: EventName, listener: (payload: unknown) => void) => {
  if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
  const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(IPC_EVENT, handler);
  return () => ipcRenderer.removeListener(IPC_EVENT, handler);
};

bridge.pickFolder = () => ipcRenderer.invoke(IPC_PICK_FOLDER) as Promise<string | undefined>;

contextBridge.exposeInMainWorld('cairnBridge', bridge);

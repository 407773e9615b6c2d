/** The one typed client the whole renderer uses, over IPC in Electron, HTTP in a browser, or GET-only HTTP in OpenClaw's tab (door.ts). */
import { createClient, type CairnApi } from '../../shared/client';
import type { CairnBridge } from '../../shared/bridge';
import { DOOR } from './door';
import { httpTransport } from './transport/http';
import { ipcTransport } from './transport/ipc';
import { tabTransport } from './transport/tab';

declare global {
  interface Window {
    cairnBridge?: CairnBridge;
  }
}

export const api: CairnApi = createClient(window.cairnBridge ? ipcTransport(window.cairnBridge) : DOOR === 'tab' ? tabTransport() : httpTransport());

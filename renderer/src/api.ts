/** The one typed client the whole renderer uses, over IPC in Electron or HTTP in a browser. */
import { createClient, type CairnApi } from '../../shared/client';
import type { CairnBridge } from '../../shared/bridge';
import { httpTransport } from './transport/http';
import { ipcTransport } from './transport/ipc';

declare global {
  interface Window {
    cairnBridge?: CairnBridge;
  }
}

export const api: CairnApi = createClient(window.cairnBridge ? ipcTransport(window.cairnBridge) : httpTransport());

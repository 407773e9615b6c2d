/**
 * What Electron's preload exposes as `window.cairnBridge`: one named method per channel
 * (never a generic invoke), returning the Result as it crossed IPC, plus event subscription.
 */
import type { Channel, EventName, Result } from './contract';

export type CairnBridge = {
  [C in Channel]: (request: unknown, opId?: string) => Promise<Result<unknown>>;
} & {
  on(event: EventName, listener: (payload: unknown) => void): () => void;
  /** The system's folder picker ("Open folder…"): the chosen path, or undefined when cancelled. */
  pickFolder(): Promise<string | undefined>;
};

/** The IPC channel name used for a contract channel. */
export const ipcName = (channel: Channel): string => `cairn:${channel}`;
export const IPC_EVENT = 'cairn:event';
/** The IPC channel of the preload's `pickFolder`. */
export const IPC_PICK_FOLDER = 'cairn-host:pick-folder';

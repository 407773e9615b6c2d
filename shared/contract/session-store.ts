/**
 * Events of the session stores (electron/engine/sessions/store/): `sessions.changed` fires
 * when a store another program writes (OpenClaw's SQLite database) changed on disk, so the
 * Sessions pages reload the list and the open session — OpenClaw's new events appear while
 * it runs, without Cairn ever writing to its files.
 */
import { ev } from './define';
import type { SessionStoreKind } from '../types/sessions';

export interface SessionsChangedEvent {
  agentId: string;
  store: SessionStoreKind;
  /** The file that changed (display only). */
  source: string;
}

export const sessionStoreEvents = {
  'sessions.changed': ev<SessionsChangedEvent>(),
};

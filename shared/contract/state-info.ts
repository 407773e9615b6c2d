/**
 * A fast read of the state dir's access (no doctor checks): the renderer needs "writable" at
 * once to offer editing, while `app.status` runs native checks that can take seconds.
 */
import { z } from 'zod';
import { ch } from './define';

export interface StateInfo {
  stateDir: string;
  writable: boolean;
  createdBy: 'cairn' | 'external';
}

export const stateInfoChannels = {
  'state.info': ch(z.object({}).strict()).returns<StateInfo>(),
};

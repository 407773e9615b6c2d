/**
 * Channels of the welcome and the state-dir switcher: what is on this computer to open, and
 * opening another state dir (or the demo) in place, without a restart. The host (the app,
 * `cairn serve`) swaps the engine; the renderer reloads when `state.switched` arrives.
 */
import { z } from 'zod';
import { ch, ev } from './define';
import type { StateInfo } from './state-info';
import type { WelcomeInfo } from '../types/welcome';

export type * from '../types/welcome';

export const welcomeChannels = {
  /** The open dir's counts, the OpenClaw dirs found here, the recent list. Reads only. */
  'welcome.info': ch(z.object({}).strict()).returns<WelcomeInfo>(),
  /** Open an existing directory as the state dir (a dir Cairn did not create opens read-only). */
  'state.open': ch(z.object({ path: z.string().min(1).max(4096) }).strict()).returns<StateInfo>(),
  /** Build the demo state dir in Cairn's data dir (replacing an earlier demo) and open it. */
  'demo.open': ch(z.object({}).strict()).returns<StateInfo>(),
};

export const welcomeEvents = {
  /** The host now serves another state dir: every view reloads. */
  'state.switched': ev<StateInfo>(),
};

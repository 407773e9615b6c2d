/** Channels for connecting Cairn to an OpenClaw install: whether it is connected, and connecting it. */
import { z } from 'zod';
import { ch } from './define';

/** Whether an OpenClaw state dir's agent uses Cairn for recall. */
export interface OpenClawConnection {
  /** The OpenClaw state dir looked at (absolute). */
  stateDir: string;
  connected: boolean;
  /** One sentence for a person: what is connected or what is missing. */
  detail: string;
  /** False when connecting cannot work here (no openclaw.json, not writable, …). */
  canConnect: boolean;
  /** Why `canConnect` is false. */
  reason?: string;
}

/** What `openclaw.connect` did, or with `dryRun` would do. */
export interface OpenClawConnectResult {
  /** False when nothing needed to change (already connected, or a dry run). */
  changed: boolean;
  /** The change to openclaw.json as a unified diff (empty when there is none). */
  diff: string;
  /** Where the previous openclaw.json was saved (absent on a dry run or undo). */
  backupPath?: string;
  /** One sentence for a person. */
  message: string;
}

const StateDir = z.string().min(1).max(4096);

export const openclawChannels = {
  'openclaw.connection': ch(z.object({ stateDir: StateDir }).strict()).returns<OpenClawConnection>(),
  /** Connect (or with `undo`, restore the backup); `dryRun` only computes the diff. */
  'openclaw.connect': ch(
    z.object({ stateDir: StateDir, dryRun: z.boolean().optional(), undo: z.boolean().optional() }).strict(),
  ).returns<OpenClawConnectResult>(),
};

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
  /** sha256 (hex) of `diff`: what a person consents to, passed back as `expectDiffSha256` to write it. */
  diffSha256: string;
  /** True when the write was refused because the change is no longer the one shown (`diff` is the change now). */
  stale?: boolean;
  /** Where the previous openclaw.json was saved (absent on a dry run or undo). */
  backupPath?: string;
  /** One sentence for a person. */
  message: string;
}

const StateDir = z.string().min(1).max(4096);

export const openclawChannels = {
  'openclaw.connection': ch(z.object({ stateDir: StateDir }).strict()).returns<OpenClawConnection>(),
  /**
   * Connect (or with `undo`, take it back); `dryRun` only computes the diff. A write needs
   * `expectDiffSha256`, the `diffSha256` of the dry run whose diff the person said yes to: when
   * the change differs by now (the file was edited meanwhile), nothing is written and the
   * result is `stale` with the change as it is now.
   */
  'openclaw.connect': ch(
    z
      .object({ stateDir: StateDir, dryRun: z.boolean().optional(), undo: z.boolean().optional(), expectDiffSha256: z.string().regex(/^[0-9a-f]{64}$/).optional() })
      .strict()
      .refine((r) => r.dryRun === true || r.expectDiffSha256 !== undefined, { message: 'expectDiffSha256 (the diffSha256 of the dry run shown) is required to write', path: ['expectDiffSha256'] }),
  ).returns<OpenClawConnectResult>(),
};

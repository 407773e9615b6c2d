/** Channels and events of the app shell: status, doctor, config, state dir. */
import { z } from 'zod';
import { ch, ev } from './define';

export const Empty = z.object({}).strict();

/** One check of `cairn doctor`, shown on the Status page too. */
export interface DoctorCheck {
  id: string;
  label: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  /** What to do about a warn/fail. */
  hint?: string;
}

export interface ConfigWarningInfo {
  file: string;
  keyPath: string;
  message: string;
}

export interface AppStatus {
  version: string;
  stateDir: string;
  writable: boolean;
  createdBy: 'cairn' | 'external';
  agents: string[];
  configFiles: string[];
  configWarnings: ConfigWarningInfo[];
  /** Non-config warnings raised by the engine since start (e.g. sqlite-vec fallback). */
  warnings: string[];
  /**
   * Session stores Cairn cannot show whole, one line per agent: OpenClaw's store has a schema
   * newer than Cairn knows (shown as a window banner and by doctor, never as an empty list).
   */
  storeWarnings?: string[];
  checks: DoctorCheck[];
}

export interface ConfigView {
  /** The effective config (defaults applied). */
  config: Record<string, unknown>;
  /** What the user wrote (merged files), without defaults. */
  raw: Record<string, unknown>;
  /** Every default. */
  defaults: Record<string, unknown>;
  /** JSON Schema of the config, for building forms. */
  schema: Record<string, unknown>;
  warnings: ConfigWarningInfo[];
  files: string[];
}

export const appChannels = {
  /** `checks: false` skips the doctor checks (some load native modules and take seconds): for banners. */
  'app.status': ch(z.object({ checks: z.boolean().optional() }).strict()).returns<AppStatus>(),
  'doctor.run': ch(Empty).returns<{ checks: DoctorCheck[] }>(),
  'config.get': ch(Empty).returns<ConfigView>(),
  /** Set (or with `value: undefined`, reset) one key in cairn.json; refused when invalid. */
  'config.set': ch(
    z.object({
      keyPath: z.string().min(1).max(300),
      value: z.unknown().optional(),
    }),
  ).returns<ConfigView>(),
  /** Validate a value for a key without saving it. */
  'config.validate': ch(z.object({ keyPath: z.string().min(1).max(300), value: z.unknown() })).returns<{
    ok: boolean;
    message?: string;
  }>(),
  'state.setWritable': ch(z.object({ writable: z.boolean() })).returns<AppStatus>(),
  /** Cancel a running operation started with this opId. */
  'op.cancel': ch(z.object({ opId: z.string().min(1).max(100) })).returns<{ cancelled: boolean }>(),
};

export const appEvents = {
  'config.changed': ev<{ warnings: ConfigWarningInfo[] }>(),
  'engine.warning': ev<{ message: string }>(),
  'db.ready': ev<{ agentId: string }>(),
};

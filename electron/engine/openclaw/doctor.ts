/**
 * Doctor's "OpenClaw connection" check, for a state dir that is an OpenClaw one (it has an
 * openclaw.json): whether Cairn's plugin is set up there (and a set-up of the old connect is
 * gone), and the command that connects it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DoctorCheck } from '../../../shared/contract';
import type { EngineContext } from '../core/context';
import { OPENCLAW_CONFIG_FILE } from '../config/load';
import { openClawConnection } from './connect';

/** The check, or null when the state dir is not an OpenClaw dir. */
export function openclawConnectionCheck(ctx: EngineContext): DoctorCheck | null {
  if (!fs.existsSync(path.join(ctx.stateDir, OPENCLAW_CONFIG_FILE))) return null;
  const c = openClawConnection(ctx.stateDir);
  const base = { id: 'openclaw-connection', label: 'OpenClaw connection' };
  if (c.connected) return { ...base, status: 'ok', detail: c.detail };
  return {
    ...base,
    status: 'warn',
    detail: c.detail,
    hint: c.canConnect ? `Run: cairn connect openclaw --state-dir ${c.stateDir} (shows the change first; --undo restores the backup).` : (c.reason ?? 'openclaw.json cannot be changed here.'),
  };
}

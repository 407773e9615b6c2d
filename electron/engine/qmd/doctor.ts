/**
 * `cairn doctor` / Status check for the QMD backend: when `memory.backend` is "qmd", run
 * `<command> --version` and report the version, or why it cannot run. A broken QMD is a
 * warning, not a failure: searches still work through the built-in index.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { DoctorCheck } from '../../../shared/contract';
import type { EngineContext } from '../core/context';
import { DEFAULT_AGENT_ID } from '../config/state-dir';
import { passedCheck } from '../core/passed-checks';
import { qmdEnv, qmdHome } from './home';
import { runQmd, splitCommand } from './run';
import { SUGGESTION_TEXT } from '../config/suggestions';

/** `--version` is instant; allow for a cold Node start on a slow disk. */
const VERSION_TIMEOUT_MS = 15_000;

const INSTALL_HINT = SUGGESTION_TEXT.qmdCommand();

/** Status asks for the checks often; one `--version` per command every 30 s is plenty. */
const CACHE_MS = 30_000;

/** The QMD check (null when the backend is builtin). */
export async function qmdDoctorCheck(ctx: EngineContext): Promise<DoctorCheck | null> {
  const { backend, qmd } = ctx.config().config.memory;
  if (backend !== 'qmd') return null;
  const base = { id: 'qmd', label: 'QMD backend' };
  const argv = splitCommand(qmd.command, (p) => fs.existsSync(p));
  const home = qmdHome(ctx.stateDir, DEFAULT_AGENT_ID, ctx.state().cairnDir);
  try {
    // The doctor writes nothing: `--version` touches no index, so no home is created and
    // the child runs in the temp dir.
    // Kept per engine for CACHE_MS; a failure is not kept (the user may be installing QMD now).
    const version = passedCheck(ctx, `qmd --version ${qmd.command}`, CACHE_MS, () =>
      runQmd(argv, ['--version'], { env: qmdEnv(home, ctx.env()), cwd: os.tmpdir(), timeoutMs: VERSION_TIMEOUT_MS }),
    );
    const { stdout, stderr } = await version;
    const text = `${stdout}\n${stderr}`;
    const found = /(\d+\.\d+\.\d+[\w.-]*)/.exec(text)?.[1];
    if (!found) {
      return { ...base, status: 'warn', detail: `${qmd.command} --version printed no version: ${JSON.stringify(text.trim().slice(0, 120))}`, hint: 'Is memory.qmd.command really QMD (npm package @tobilu/qmd)?' };
    }
    return { ...base, status: 'ok', detail: `qmd ${found} (${qmd.command}), search mode "${qmd.searchMode}"` };
  } catch (err) {
    return { ...base, status: 'warn', detail: (err as Error).message, hint: INSTALL_HINT };
  }
}

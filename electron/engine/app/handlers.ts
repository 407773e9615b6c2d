/** Handlers of the app channels: status, doctor, config, state dir. */
import { z } from 'zod';
import type { AppStatus, ConfigView } from '../../../shared/contract';
import { ConfigSchema, defaultConfig } from '../config/schema';
import type { ContextSlot, EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { opCancelHandler } from '../rpc/dispatcher';
import { runDoctor } from './doctor';
import { storeSchemaWarnings } from '../sessions/store/doctor';
import { setConfigKey, validateKey, readOwnConfig } from '../config/edit';
import { withSecretRefs } from '../config/secrets';

/** The config's JSON Schema, built once per engine (zod's conversion takes a few ms). */
const jsonSchemaSlot: ContextSlot<Record<string, unknown>> = {
  name: 'config JSON schema',
  create: () => z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
};

export function configView(ctx: EngineContext): ConfigView {
  const loaded = ctx.config();
  return {
    config: withSecretRefs(loaded.config as unknown as Record<string, unknown>, loaded.raw, loaded.secretPaths ?? []),
    raw: loaded.raw,
    defaults: defaultConfig() as unknown as Record<string, unknown>,
    schema: ctx.member(jsonSchemaSlot),
    warnings: loaded.warnings,
    files: loaded.files,
  };
}

export async function appStatus(ctx: EngineContext, opts: { native?: boolean; checks?: boolean } = {}): Promise<AppStatus> {
  const s = ctx.state();
  const loaded = ctx.config();
  return {
    version: ctx.version,
    stateDir: s.stateDir,
    writable: s.writable,
    createdBy: s.createdBy,
    agents: ctx.agents(),
    configFiles: loaded.files,
    configWarnings: loaded.warnings,
    warnings: ctx.warnings(),
    storeWarnings: storeSchemaWarnings(ctx),
    checks: opts.checks === false ? [] : await runDoctor(ctx, opts),
  };
}

export function appHandlers(ctx: EngineContext): Pick<
  Handlers,
  'app.status' | 'doctor.run' | 'config.get' | 'config.set' | 'config.validate' | 'state.setWritable' | 'op.cancel'
> {
  return {
    'app.status': (req) => appStatus(ctx, { checks: req.checks }),
    // Each check is sent as it completes (doctor.check), so the Status page fills in one by one.
    'doctor.run': async (_req, { opId }) => ({ checks: await runDoctor(ctx, { onCheck: (check) => ctx.events.emit('doctor.check', { opId, check }) }) }),
    'config.get': () => configView(ctx),
    'config.set': ({ keyPath, value }) => {
      // A foreign dir's settings go to its home in Cairn's data dir, never into the dir.
      setConfigKey(ctx.state().settingsDir, keyPath, value);
      ctx.reloadConfig();
      return configView(ctx);
    },
    'config.validate': ({ keyPath, value }) => {
      const message = validateKey(readOwnConfig(ctx.state().settingsDir), keyPath, value);
      return message ? { ok: false, message } : { ok: true };
    },
    'state.setWritable': async ({ writable }) => {
      ctx.setWritable(writable);
      return appStatus(ctx, { checks: false });
    },
    'op.cancel': opCancelHandler,
  };
}

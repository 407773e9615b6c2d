/**
 * The contract end to end in-process: the typed client, validation before the engine,
 * errors as values, cancellation through op.cancel, and the HTTP transport's parity.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, CairnError, type Transport } from '../../shared/client';
import { channelNames, channels } from '../../shared/contract';
import { EngineError } from '../../electron/engine/core/errors';
import { createDispatcher, type Handlers } from '../../electron/engine/rpc/dispatcher';
import { createEventBus } from '../../electron/engine/rpc/events';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { tmpDir } from '../helpers/tmp';

describe('contract', () => {
  it('every channel has a zod request schema and the engine a handler for it', () => {
    const engine = createEngine({ stateDir: tmpDir() });
    for (const name of channelNames) {
      expect(channels[name].request).toBeInstanceOf(z.ZodType);
      expect(typeof engine.handlers[name]).toBe('function');
    }
    void engine.dispose();
  });

  it('the direct client reaches the engine and returns typed values', async () => {
    const engine = createEngine({ stateDir: tmpDir() });
    const api = createDirectClient(engine);
    const view = await api['config.get']({});
    expect((view.defaults as { agents: { defaults: { contextTokens: number } } }).agents.defaults.contextTokens).toBe(200000);
    await api['config.set']({ keyPath: 'agents.defaults.contextPruning.keepLastAssistants', value: 5 });
    const after = await api['config.get']({});
    expect((after.config as { agents: { defaults: { contextPruning: { keepLastAssistants: number } } } }).agents.defaults.contextPruning.keepLastAssistants).toBe(5);
    await engine.dispose();
  });

  it('an invalid config value is refused with the key path and nothing is written', async () => {
    const engine = createEngine({ stateDir: tmpDir() });
    const api = createDirectClient(engine);
    await expect(api['config.set']({ keyPath: 'agents.defaults.contextPruning.softTrimRatio', value: 7 })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('agents.defaults.contextPruning.softTrimRatio'),
    });
    const v = await api['config.validate']({ keyPath: 'agents.defaults.contextPruning.ttl', value: 'later' });
    expect(v.ok).toBe(false);
    expect(v.message).toMatch(/duration/);
    await engine.dispose();
  });

  it('validates requests before a handler runs and turns thrown errors into values', async () => {
    let ran = 0;
    const handlers = {
      'config.validate': () => {
        ran++;
        throw new EngineError('not_found', 'nothing here');
      },
    } as unknown as Handlers;
    const d = createDispatcher(handlers);
    const bad = await d.dispatch('config.validate', { keyPath: 3 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(ran).toBe(0);
    const thrown = await d.dispatch('config.validate', { keyPath: 'a', value: 1 });
    expect(thrown).toEqual({ ok: false, error: { code: 'not_found', message: 'nothing here' } });
    expect(ran).toBe(1);
    expect(await d.dispatch('nope', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  it('aborting a call cancels the running handler through op.cancel', async () => {
    let sawAbort = false;
    let onReached: () => void = () => {};
    const reached = new Promise<void>((r) => (onReached = r));
    const handlers = {
      'doctor.run': (_req: unknown, ctx: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          onReached();
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            const e = new Error('aborted');
            e.name = 'AbortError';
            reject(e);
          });
        }),
    } as unknown as Handlers;
    const d = createDispatcher(handlers);
    const api = createClient({ invoke: (c, r, o) => d.dispatch(c, r, o), subscribe: () => () => undefined });
    const ac = new AbortController();
    const p = api['doctor.run']({}, { signal: ac.signal });
    // Abort once the handler is running, so the cancel provably travels through op.cancel to it.
    await reached;
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(CairnError);
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
    expect(sawAbort).toBe(true);
  });

  it('events reach subscribers of the typed client', async () => {
    const bus = createEventBus();
    const transport: Transport = { invoke: async () => ({ ok: true, value: null }), subscribe: (e, l) => bus.on(e, l) };
    const api = createClient(transport);
    const got: string[] = [];
    const off = api.on('engine.warning', (p) => got.push(p.message));
    bus.emit('engine.warning', { message: 'one' });
    off();
    bus.emit('engine.warning', { message: 'two' });
    expect(got).toEqual(['one']);
  });
});

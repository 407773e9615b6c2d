/**
 * The QMD backend's failure paths (issue 5): a `memory.qmd.command` that is missing, exits
 * non-zero, prints garbage or hangs → the built-in index answers that search, with a
 * warning in the response and in Status; QMD is retried after a backoff; dispose kills
 * running children. Fake qmd scripts stand in for the CLI here (the real one: qmd-real).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../electron/engine/app/doctor';
import { qmdManager } from '../../electron/engine/qmd/registry';
import { AUTOSTART_DELAY_MS } from '../../electron/engine/qmd/handlers';
import { durationMs, QmdSchema } from '../../electron/engine/config/schema';
import { alive, fakeQmd, startQmdEngine } from '../helpers/qmd-engine';
import { tmpDir } from '../helpers/tmp';

/** The pid the hanging fake qmd wrote, once it has: waits on its folder's change events, not on a clock. */
function pidWritten(pidFile: string): Promise<number> {
  return new Promise((resolve) => {
    const check = (): void => {
      const text = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() : '';
      if (!/^\d+$/.test(text)) return;
      watcher.close();
      resolve(Number(text));
    };
    const watcher = fs.watch(path.dirname(pidFile), check);
    check();
  });
}

/** The built-in index's answer to "Alfama": the daily note, cited. */
function expectBuiltinAnswer(res: { backend?: string; results: { path: string; citation: string }[] }) {
  expect(res.backend).toBe('builtin');
  expect(res.results[0]?.path).toBe('memory/2026-11-01.md');
  expect(res.results[0]?.citation).toMatch(/^memory\/2026-11-01\.md#L\d+-L\d+$/);
}

describe('QMD fallback to the built-in index', () => {
  it('a missing binary: built-in results, a warning in the response and in Status', async () => {
    const missing = path.join(tmpDir('cairn-nobin-'), 'no-such-qmd');
    const { api, engine } = startQmdEngine({ command: missing });
    const res = await api['search.query']({ query: 'Alfama' });
    expectBuiltinAnswer(res);
    expect(res.warnings[0]).toMatch(/^QMD search failed \(.*not found.*no-such-qmd.*\); served by the built-in index$/);
    expect(engine.ctx.warnings()).toContain(res.warnings[0]);
    const status = await api['app.status']({});
    expect(status.warnings).toContain(res.warnings[0]);
  });

  it('a non-zero exit: the exit code and stderr are in the warning', async () => {
    const fake = fakeQmd('exit');
    const { api, engine } = startQmdEngine({ command: fake.command });
    const res = await api['search.query']({ query: 'Alfama' });
    expectBuiltinAnswer(res);
    expect(res.warnings[0]).toMatch(/QMD search failed \(qmd search exited with 3: boom: index is corrupt\)/);
    expect(engine.ctx.warnings()).toContain(res.warnings[0]);
    // It did set QMD up first: collections added for MEMORY.md and memory/, then update, then search.
    const calls = fake.calls();
    expect(calls).toContain(`collection --index cairn add ${path.join(engine.ctx.paths().workspace, 'memory')} --name memory-dir --mask **/*.md`);
    expect(calls.filter((c) => c.startsWith('update --index cairn'))).toHaveLength(1);
    expect(calls.at(-1)).toBe('search --index cairn --json -n 6 -c memory-root -c memory-dir -- Alfama');
  });

  it('garbage output: unparseable → built-in results with a warning', async () => {
    const fake = fakeQmd('garbage');
    const { api } = startQmdEngine({ command: fake.command });
    const res = await api['search.query']({ query: 'Alfama' });
    expectBuiltinAnswer(res);
    expect(res.warnings[0]).toMatch(/QMD search failed \(qmd printed output that is not JSON: "Results: this is not json \{"\)/);
  });

  it('a hang: killed at timeoutMs, built-in results with a warning', async () => {
    const fake = fakeQmd('hang');
    const { api } = startQmdEngine({ command: fake.command, qmd: { timeoutMs: 300 } });
    const res = await api['search.query']({ query: 'Alfama' });
    expectBuiltinAnswer(res);
    expect(res.warnings[0]).toMatch(/QMD search failed \(qmd search timed out after 300 ms\)/);
    const pid = Number(fs.readFileSync(fake.pidFile, 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('after a failure QMD is skipped until the backoff expires, then tried again', async () => {
    const fake = fakeQmd('exit');
    const { api, advance } = startQmdEngine({ command: fake.command });
    const searches = () => fake.calls().filter((c) => c.startsWith('search ')).length;
    await api['search.query']({ query: 'Alfama' });
    expect(searches()).toBe(1);
    const skipped = await api['search.query']({ query: 'Alfama' });
    expectBuiltinAnswer(skipped);
    expect(searches()).toBe(1);
    expect(skipped.warnings[0]).toMatch(/^QMD is unavailable \(qmd search exited with 3: .*\); served by the built-in index until QMD is retried at 2026-11-05T12:00:05\.000Z$/);
    const status = await api['qmd.status']({});
    expect(status.agent?.retryAt).toBe('2026-11-05T12:00:05.000Z');
    expect(status.agent?.lastError).toMatch(/exited with 3/);
    advance(5_001);
    await api['search.query']({ query: 'Alfama' });
    expect(searches()).toBe(2);
    // Second failure in a row: the backoff doubles (10 s).
    expect((await api['qmd.status']({})).agent?.retryAt).toBe('2026-11-05T12:00:15.001Z');
  });

  it('a successful QMD answer clears the backoff and says backend "qmd"', async () => {
    const fake = fakeQmd('empty');
    const { api } = startQmdEngine({ command: fake.command });
    const res = await api['search.query']({ query: 'Alfama' });
    expect(res).toMatchObject({ backend: 'qmd', results: [], mode: 'fts-only', warnings: [] });
    expect((await api['qmd.status']({})).agent).toMatchObject({ retryAt: null, lastError: null, lastUpdate: '2026-11-05T12:00:00.000Z' });
  });

  it('date filters are served by the built-in index without calling QMD', async () => {
    const fake = fakeQmd('empty');
    const { api } = startQmdEngine({ command: fake.command });
    const res = await api['search.query']({ query: 'Alfama', since: '2026-10-01' });
    expectBuiltinAnswer(res);
    expect(res.warnings[0]).toMatch(/QMD has no date filters/);
    expect(fake.calls()).toEqual([]);
  });

  it('memory.backend "builtin" never runs qmd and says backend "builtin"', async () => {
    const fake = fakeQmd('empty');
    const { api } = startQmdEngine({ command: fake.command, backend: 'builtin' });
    const res = await api['search.query']({ query: 'Alfama' });
    expectBuiltinAnswer(res);
    expect(res.warnings).toEqual([]);
    expect(fake.calls()).toEqual([]);
    expect(await api['qmd.status']({})).toMatchObject({ backend: 'builtin', agent: null });
  });
});

describe('QMD refresh loop', () => {
  it('starts by itself a few seconds after the engine, without a search', async () => {
    const fake = fakeQmd('empty');
    const { timers } = startQmdEngine({ command: fake.command });
    // The engine set one timer, the start-up delay; nothing ran yet.
    expect(timers.pending()).toEqual([AUTOSTART_DELAY_MS]);
    expect(fake.calls()).toEqual([]);
    // Its end starts the manager, which schedules the first refresh at once…
    const first = timers.nextSet();
    timers.advance(AUTOSTART_DELAY_MS);
    expect(await first).toBe(0);
    // …and once that refresh is done, the next one at the interval.
    const next = timers.nextSet();
    timers.advance(0);
    expect(await next).toBe(durationMs(QmdSchema.parse({}).update.interval));
    expect(fake.calls()[0]).toBe('collection --index cairn list --json');
    expect(fake.calls()).toContain('update --index cairn');
  });

  it('never runs two refreshes at once', async () => {
    const fake = fakeQmd('empty');
    const { engine } = startQmdEngine({ command: fake.command });
    const mgr = qmdManager(engine.ctx, 'main');
    const a = mgr.maintain();
    const b = mgr.maintain();
    expect(b).toBe(a);
    await Promise.all([a, b]);
    expect(fake.calls().filter((c) => c === 'update --index cairn')).toHaveLength(1);
  });

  it('a memory file added, edited or deleted since the last update makes the next search refresh first', async () => {
    const fake = fakeQmd('empty');
    const { api, stateDir } = startQmdEngine({ command: fake.command });
    const updates = () => fake.calls().filter((c) => c === 'update --index cairn').length;
    await api['search.query']({ query: 'Alfama' });
    await api['search.query']({ query: 'Alfama' });
    expect(updates()).toBe(1);
    fs.writeFileSync(path.join(stateDir, 'workspace/memory/2026-11-04.md'), '# New\n\nquokka\n');
    await api['search.query']({ query: 'quokka' });
    expect(updates()).toBe(2);
    expect(fake.calls().at(-1)).toMatch(/^search /);
    fs.rmSync(path.join(stateDir, 'workspace/memory/2026-11-04.md'));
    await api['search.query']({ query: 'quokka' });
    expect(updates()).toBe(3);
    // An edit (mtime set explicitly: the test must not depend on the clock's resolution).
    const mem = path.join(stateDir, 'workspace/MEMORY.md');
    fs.writeFileSync(mem, '# Long-term memory\n\nNow prefers rooibos.\n');
    fs.utimesSync(mem, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    await api['search.query']({ query: 'rooibos' });
    expect(updates()).toBe(4);
    await api['search.query']({ query: 'rooibos' });
    expect(updates()).toBe(4);
  });

  it('a failed refresh after the first build leaves QMD answering from its current index', async () => {
    const fake = fakeQmd('empty');
    const { api, engine, stateDir } = startQmdEngine({ command: fake.command });
    expect((await api['search.query']({ query: 'Alfama' })).backend).toBe('qmd');
    fs.writeFileSync(fake.failUpdateFlag, '');
    fs.writeFileSync(path.join(stateDir, 'workspace/memory/2026-11-04.md'), '# New\n\nquokka\n');
    const res = await api['search.query']({ query: 'quokka' });
    expect(res).toMatchObject({ backend: 'qmd', warnings: [] });
    expect(fake.calls().at(-1)).toMatch(/^search /);
    expect(engine.ctx.warnings().some((w) => /^QMD refresh failed \(qmd update exited with 4: update broke\); retrying in 5 s$/.test(w))).toBe(true);
  });

  it("indexes the agent's extraPaths (agents.list[] override) as their own collections", async () => {
    const fake = fakeQmd('empty');
    const { api, stateDir } = startQmdEngine({
      command: fake.command,
      config: { agents: { list: [{ id: 'main', memorySearch: { extraPaths: ['../notes'] } }] } },
      extraFiles: { 'notes/ideas.md': '# Ideas\n' },
    });
    await api['search.query']({ query: 'Alfama' });
    expect(fake.calls()).toContain(`collection --index cairn add ${path.join(stateDir, 'notes')} --name extra-1 --mask **/*.md`);
    expect(fake.calls().at(-1)).toBe('search --index cairn --json -n 6 -c memory-root -c memory-dir -c extra-1 -- Alfama');
  });

  it('runs `qmd embed` after `update` when the search mode needs vectors, and searches in that mode', async () => {
    const fake = fakeQmd('empty');
    const { api } = startQmdEngine({ command: fake.command, qmd: { searchMode: 'vsearch' } });
    const res = await api['search.query']({ query: 'Alfama' });
    expect(res).toMatchObject({ backend: 'qmd', mode: 'vector-only', embedder: { provider: 'qmd', model: 'vsearch' } });
    const calls = fake.calls();
    const update = calls.indexOf('update --index cairn');
    expect(update).toBeGreaterThan(-1);
    expect(calls[update + 1]).toBe('embed --index cairn');
    expect(calls.at(-1)).toBe('vsearch --index cairn --json -n 6 -c memory-root -c memory-dir -- Alfama');
    expect((await api['qmd.status']({})).agent?.lastEmbed).toBe('2026-11-05T12:00:00.000Z');
  });

  it('refreshes again at the configured interval', async () => {
    const fake = fakeQmd('empty');
    const { api, timers } = startQmdEngine({ command: fake.command, qmd: { update: { interval: '100ms' } } });
    await api['search.query']({ query: 'Alfama' });
    const updates = () => fake.calls().filter((c) => c === 'update --index cairn').length;
    expect(updates()).toBe(1);
    // Each refresh schedules the next one at the interval; the test moves the clock, no waiting.
    expect(timers.pending()).toContain(100);
    for (const n of [2, 3]) {
      const next = timers.nextSet();
      timers.advance(100);
      expect(await next).toBe(100);
      expect(updates()).toBe(n);
    }
    // Collections were set up once; later refreshes only update.
    expect(fake.calls().filter((c) => c.startsWith('collection --index cairn add'))).toHaveLength(2);
  });

  it('qmd.update refreshes now and re-checks the collection list; refused for the builtin backend', async () => {
    const fake = fakeQmd('empty');
    const { api, setBackend } = startQmdEngine({ command: fake.command });
    await api['search.query']({ query: 'Alfama' });
    const lists = () => fake.calls().filter((c) => c === 'collection --index cairn list --json').length;
    expect(lists()).toBe(1);
    const status = await api['qmd.update']({});
    expect(lists()).toBe(2);
    expect(status).toMatchObject({ backend: 'qmd', searchMode: 'search', agent: { updating: false, lastError: null } });
    expect(fake.calls().filter((c) => c === 'update --index cairn')).toHaveLength(2);
    setBackend('builtin');
    await expect(api['qmd.update']({})).rejects.toThrow(/memory.backend is "builtin"/);
  });

  it('a failing refresh is reported with its backoff, in qmd.update and in Status', async () => {
    const missing = path.join(tmpDir('cairn-nobin-'), 'qmd');
    const { api, engine } = startQmdEngine({ command: missing });
    await expect(api['qmd.update']({})).rejects.toThrow(/QMD refresh failed: the qmd command was not found/);
    expect(engine.ctx.warnings().some((w) => /^QMD refresh failed \(.*not found.*\); retrying in 5 s$/.test(w))).toBe(true);
  });

  it('dispose kills a running qmd child', async () => {
    const fake = fakeQmd('hang');
    const { api, engine } = startQmdEngine({ command: fake.command, qmd: { timeoutMs: 120_000 } });
    const pending = api['search.query']({ query: 'Alfama' }).catch((err: Error) => err);
    const pid = await pidWritten(fake.pidFile);
    expect(alive(pid)).toBe(true);
    await engine.dispose();
    await pending;
    expect(alive(pid)).toBe(false);
  });
});

describe('cairn doctor: QMD check', () => {
  it('warns with an install hint when the binary is missing, and is absent for the builtin backend', async () => {
    const missing = path.join(tmpDir('cairn-nobin-'), 'qmd');
    const { engine } = startQmdEngine({ command: missing });
    const checks = await runDoctor(engine.ctx, { native: false });
    const qmd = checks.find((c) => c.id === 'qmd');
    expect(qmd).toMatchObject({ status: 'warn', label: 'QMD backend' });
    expect(qmd?.detail).toMatch(/not found/);
    expect(qmd?.hint).toMatch(/@tobilu\/qmd/);
    const builtin = startQmdEngine({ command: missing, backend: 'builtin' });
    expect((await runDoctor(builtin.engine.ctx, { native: false })).some((c) => c.id === 'qmd')).toBe(false);
  });
});

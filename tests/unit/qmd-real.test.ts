/**
 * The QMD backend against the REAL qmd CLI (npm `@tobilu/qmd`, BM25 `search` mode: no
 * model), installed before the tests by scripts/fetch-test-qmd.mjs (`.ci/run`, pretest); where
 * it is missing these tests are skipped with the reason printed (under CI=true they fail).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../electron/engine/app/doctor';
import { exportSessions } from '../../electron/engine/qmd/backend';
import { qmdEnv, qmdHome } from '../../electron/engine/qmd/home';
import { qmdManager } from '../../electron/engine/qmd/registry';
import { ensureRealQmd } from '../helpers/qmd';
import { startQmdEngine, transcript } from '../helpers/qmd-engine';
import { tmpDir, writeTree } from '../helpers/tmp';

const real = ensureRealQmd();
const skip = 'skip' in real ? real.skip : null;
if ('skip' in real) console.warn(`[qmd-real] SKIPPED: ${real.skip}`);
const command = 'skip' in real ? '' : real.command;
// Generous: qmd is a cold Node 22 start per call, on a shared machine.
const timeoutMs = 60_000;

/** Run the real qmd in an agent's QMD home (as Cairn does), for checks from outside. */
function qmdIn(stateDir: string, args: string[]): string {
  return execFileSync(command, args, { env: qmdEnv(qmdHome(stateDir, 'main')), cwd: stateDir, encoding: 'utf8' });
}

describe.skipIf(Boolean(skip))(`real qmd (${'skip' in real ? 'skipped' : real.version})`, () => {
  it('answers search.query with workspace paths, line ranges and citations', { timeout: 120_000 }, async () => {
    const { api, engine } = startQmdEngine({ command, qmd: { timeoutMs } });
    const res = await api['search.query']({ query: 'Alfama confirmation', explain: true });
    expect(res.backend).toBe('qmd');
    expect(res.mode).toBe('fts-only');
    expect(res.warnings).toEqual([]);
    const hit = res.results[0]!;
    expect(hit).toMatchObject({ path: 'memory/2026-11-01.md', source: 'memory' });
    // Lines 5–6 of the note hold the booking; the cited range must contain line 6.
    expect(hit.startLine).toBeLessThanOrEqual(6);
    expect(hit.endLine).toBeGreaterThanOrEqual(6);
    expect(hit.citation).toBe(`memory/2026-11-01.md#L${hit.startLine}-L${hit.endLine}`);
    expect(hit.snippet).toContain('Hotel near Alfama, confirmation QX7731.');
    expect(hit.snippet.length).toBeLessThanOrEqual(700);
    expect(hit.explain).toMatchObject({ text: hit.score, vector: null, merged: hit.score });

    // MEMORY.md through its own collection; a mangled handle (my_notes → my-notes) maps back.
    const tea = await api['search.query']({ query: 'green tea' });
    expect(tea.results[0]).toMatchObject({ path: 'MEMORY.md', source: 'memory' });
    const kayak = await api['search.query']({ query: 'kayak harbour' });
    expect(kayak.backend).toBe('qmd');
    expect(kayak.results[0]?.path).toBe('memory/projects/my_notes.md');
    expect(kayak.results[0]?.citation).toMatch(/^memory\/projects\/my_notes\.md#L\d+-L\d+$/);

    // A note written after QMD's last update: the next search refreshes first and finds it.
    fs.writeFileSync(path.join(engine.ctx.paths().memoryDir, '2026-11-04.md'), '# 2026-11-04\n\nSaw a quokka at the zoo.\n');
    expect((await api['search.query']({ query: 'quokka' })).results[0]).toMatchObject({ path: 'memory/2026-11-04.md', startLine: 3, endLine: 3 });

    const status = await api['qmd.status']({});
    expect(status.agent?.collections.map((c) => c.name)).toEqual(['memory-root', 'memory-dir']);
    expect(status.agent?.lastUpdate).toBe('2026-11-05T12:00:00.000Z');
  });

  it('repairs collections: a stray one removed, one pointing elsewhere re-added', { timeout: 120_000 }, async () => {
    // Builtin while the stage is set, so the engine's QMD start-up cannot race the set-up.
    const { api, stateDir, engine, setBackend } = startQmdEngine({ command, qmd: { timeoutMs }, backend: 'builtin' });
    const decoy = writeTree(tmpDir('cairn-decoy-'), { 'decoy.md': '# Decoy\n\nThe word marzipan lives only here.\n' });
    // Someone (an older Cairn, a user) left QMD's list in another shape.
    qmdIn(stateDir, ['collection', '--index', 'cairn', 'add', decoy, '--name', 'memory-dir', '--mask', '**/*.md']);
    qmdIn(stateDir, ['collection', '--index', 'cairn', 'add', decoy, '--name', 'old-notes', '--mask', '*.md']);
    setBackend('qmd');
    const res = await api['search.query']({ query: 'marzipan' });
    expect(res.backend).toBe('qmd');
    expect(res.results).toEqual([]);
    const list = qmdIn(stateDir, ['collection', '--index', 'cairn', 'list']);
    expect(list).not.toContain('old-notes');
    const shown = qmdIn(stateDir, ['collection', '--index', 'cairn', 'show', 'memory-dir']);
    expect(shown).toContain(fs.realpathSync(path.join(engine.ctx.paths().workspace, 'memory')));
    expect((await api['search.query']({ query: 'derailleur' })).results[0]?.path).toBe('memory/2026-10-20.md');
  });

  it('exports transcripts (user/assistant text, redacted) and cites the JSONL lines', { timeout: 120_000 }, async () => {
    const { api, stateDir, engine, setQmd } = startQmdEngine({
      command,
      qmd: { timeoutMs, sessions: { enabled: true } },
      extraFiles: { 'agents/main/sessions/s-lisbon.jsonl': transcript() },
    });
    const res = await api['search.query']({ query: 'gate code', source: 'sessions' });
    expect(res.backend).toBe('qmd');
    const hit = res.results[0]!;
    expect(hit).toMatchObject({ path: 'sessions/s-lisbon.jsonl', source: 'sessions' });
    // The user's ask is JSONL line 2, the assistant's answer line 3.
    expect(hit.startLine).toBeLessThanOrEqual(2);
    expect(hit.endLine).toBeGreaterThanOrEqual(3);
    expect(hit.snippet).toContain('User: Please remember the gate code 4471 for the flat in Lisbon.');
    expect(hit.snippet).toContain('Assistant: Noted: the gate code is 4471.');
    // Tool output and thinking are not exported; the pasted key is redacted.
    const exported = fs.readFileSync(path.join(qmdHome(stateDir, 'main').sessionsDir, 's-lisbon.md'), 'utf8');
    expect(exported).not.toMatch(/zebra|platypus|sk-abcdefghijklmnopqrstuvwx1234/);
    expect(exported).toContain('[REDACTED]');

    // A new turn: exportSessions writes it and refreshes QMD; the next search finds it.
    fs.appendFileSync(
      path.join(engine.ctx.paths().sessionsDir, 's-lisbon.jsonl'),
      `${JSON.stringify({ type: 'message', id: 'a1000005', parentId: 'a1000004', timestamp: '2026-11-02T09:05:00.000Z', message: { role: 'user', content: 'The ferry to Cacilhas leaves at noon.', timestamp: 5 } })}\n`,
    );
    expect(exportSessions(engine.ctx, 'main')).toEqual({ written: 1, removed: 0, unchanged: 0 });
    expect(exportSessions(engine.ctx, 'main')).toEqual({ written: 0, removed: 0, unchanged: 1 });
    // The export started a refresh in the background; maintain() hands back that same run.
    await qmdManager(engine.ctx, 'main').maintain();
    const ferry = await api['search.query']({ query: 'Cacilhas ferry' });
    const f = ferry.results[0]!;
    expect(f.path).toBe('sessions/s-lisbon.jsonl');
    expect(f.startLine).toBeLessThanOrEqual(6);
    expect(f.endLine).toBe(6);
    expect(f.citation).toBe(`sessions/s-lisbon.jsonl#L${f.startLine}-L6`);
    expect(f.snippet.split('\n').at(-1)).toBe('User: The ferry to Cacilhas leaves at noon.');

    // Without the hook: a search exports the changed transcript and waits for the refresh.
    fs.appendFileSync(
      path.join(engine.ctx.paths().sessionsDir, 's-lisbon.jsonl'),
      `${JSON.stringify({ type: 'message', id: 'a1000006', parentId: 'a1000005', timestamp: '2026-11-02T09:06:00.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Museum tickets cost twelve euros.' }], timestamp: 6 } })}\n`,
    );
    const museum = await api['search.query']({ query: 'museum tickets', source: 'sessions' });
    expect(museum.results[0]?.endLine).toBe(7);
    expect(museum.results[0]?.snippet).toContain('Assistant: Museum tickets cost twelve euros.');

    // Memory off: only the sessions collection is left, in QMD's list as in Status.
    setQmd({ includeDefaultMemory: false });
    expect((await api['search.query']({ query: 'Alfama' })).results).toEqual([]);
    expect((await api['qmd.status']({})).agent?.collections.map((c) => c.name)).toEqual(['sessions']);
    expect(qmdIn(stateDir, ['collection', '--index', 'cairn', 'list'])).not.toContain('memory-dir');
  });

  it('cairn doctor reports the qmd version', { timeout: 60_000 }, async () => {
    const { engine } = startQmdEngine({ command, qmd: { timeoutMs } });
    const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'qmd');
    expect(check?.status).toBe('ok');
    expect(check?.detail).toMatch(/^qmd \d+\.\d+\.\d+ .*search mode "search"$/);
  });
});

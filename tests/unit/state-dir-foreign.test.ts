/**
 * A state dir Cairn did not create is never written into (issue 10.4): an OpenClaw dir stays
 * byte-identical, with nothing added, through index, search, sessions list/show/prune/compact
 * --dry-run, serve and settings changes; Cairn's own files for it (index, settings, writable
 * marker) are in its data dir, the converted model once per user; a mistyped --state-dir is
 * an error, not a new dir.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { serveStateDir } from '../helpers/server';
import { tmpDir, writeTree } from '../helpers/tmp';

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}

describe('a foreign state dir', () => {
  it('stays byte-identical, with nothing added, through index, search, sessions, prune, compact --dry-run, serve and settings changes', async () => {
    const oc = copyOpenClawState();
    const before = oc.tree();
    for (const args of [
      ['index'],
      ['search', 'violet harbor'],
      ['sessions', 'list'],
      ['sessions', 'show', 's1-alpha'],
      ['prune', 's5-anth', '--dry-run'],
      ['compact', 's4-delta', '--dry-run'],
      ['doctor'],
    ]) {
      const r = await cli([...args, '--state-dir', oc.stateDir]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const served = await serveStateDir(oc.stateDir);
    try {
      const call = async (channel: string, body: unknown) => {
        const res = await fetch(`${served.server.url}/api/call/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${served.server.token}` },
          body: JSON.stringify({ request: body }),
        });
        const out = { status: res.status, body: (await res.json()) as { ok: boolean; value?: unknown; error?: unknown } };
        if (!out.body.ok) console.error(channel, JSON.stringify(out.body.error));
        return out;
      };
      expect((await call('config.set', { keyPath: 'agents.defaults.memorySearch.maxResults', value: 9 })).body.ok).toBe(true);
      expect((await call('sessions.list', {})).body.ok).toBe(true);
      expect((await call('state.setWritable', { writable: true })).body.ok).toBe(true);
      expect((await call('state.setWritable', { writable: false })).body.ok).toBe(true);
    } finally {
      await served.close();
    }
    expect(oc.tree()).toEqual(before);
    // Cairn's own files went to its data dir: the index, the settings, the marker; the model once per user.
    const [home] = fs.readdirSync(path.join(oc.dataDir, 'state-dirs'));
    const own = path.join(oc.dataDir, 'state-dirs', home as string);
    expect(fs.existsSync(path.join(own, 'index', 'main.sqlite'))).toBe(true);
    expect(fs.readFileSync(path.join(own, 'cairn.json'), 'utf8')).toContain('maxResults: 9');
    expect(JSON.parse(fs.readFileSync(path.join(own, 'state.json'), 'utf8'))).toMatchObject({ createdBy: 'external', writable: false });
    expect(JSON.parse(fs.readFileSync(path.join(own, 'source.json'), 'utf8'))).toEqual({ stateDir: oc.stateDir });
  });

  it('settings changed in Cairn are read back by the next engine, over the dir\'s own config', async () => {
    const oc = copyOpenClawState();
    const first = createEngine({ stateDir: oc.stateDir });
    await createDirectClient(first)['config.set']({ keyPath: 'agents.defaults.memorySearch.maxResults', value: 11 });
    await first.dispose();
    const second = createEngine({ stateDir: oc.stateDir });
    try {
      expect(second.ctx.config().config.memory.search.maxResults).toBe(11);
      // openclaw.json is still read: its one-minute pruning TTL.
      expect(second.ctx.config().config.agents.defaults.contextPruning.ttl).toBe('1m');
    } finally {
      await second.dispose();
    }
  });

  it('turning writing on is remembered in the data dir, and then allows writes to transcripts and memory only', async () => {
    const oc = copyOpenClawState();
    const e = createEngine({ stateDir: oc.stateDir });
    expect(e.ctx.state().writable).toBe(false);
    e.ctx.setWritable(true);
    await e.dispose();
    const again = createEngine({ stateDir: oc.stateDir });
    try {
      expect(again.ctx.state()).toMatchObject({ writable: true, createdBy: 'external' });
      expect(again.ctx.paths().indexFile.startsWith(oc.dataDir)).toBe(true);
    } finally {
      await again.dispose();
    }
    expect(fs.existsSync(path.join(oc.stateDir, 'cairn'))).toBe(false);
  });

  it('two foreign dirs share one per-user models dir; a dir Cairn created keeps its own', () => {
    const a = copyOpenClawState();
    const b = path.join(tmpDir(), 'other-openclaw');
    writeTree(b, { 'openclaw.json': '{}\n' });
    const ea = createEngine({ stateDir: a.stateDir });
    const eb = createEngine({ stateDir: b });
    const own = createEngine({ stateDir: tmpDir() });
    try {
      expect(ea.ctx.paths().modelsDir).toBe(path.join(a.dataDir, 'models'));
      expect(eb.ctx.paths().modelsDir).toBe(path.join(a.dataDir, 'models'));
      expect(ea.ctx.paths().indexFile).not.toBe(eb.ctx.paths().indexFile);
      expect(own.ctx.paths().modelsDir).toBe(path.join(own.ctx.stateDir, 'cairn', 'models'));
    } finally {
      void ea.dispose();
      void eb.dispose();
      void own.dispose();
    }
  });
});

describe('a state dir that does not exist', () => {
  it('cairn doctor --state-dir <missing> says so, exits 1 and creates nothing; --init creates it', async () => {
    const missing = path.join(tmpDir(), 'typo-state');
    const r = await cli(['doctor', '--state-dir', missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the state dir ${missing} does not exist`);
    expect(r.stderr).toContain('--init');
    expect(fs.existsSync(missing)).toBe(false);
    for (const args of [['sessions', 'list'], ['index'], ['search', 'x']]) {
      expect((await cli([...args, '--state-dir', missing])).code).toBe(1);
      expect(fs.existsSync(missing)).toBe(false);
    }
    const init = await cli(['doctor', '--init', '--state-dir', missing]);
    expect(init.code, init.stderr).toBe(0);
    expect(fs.existsSync(path.join(missing, 'workspace', 'MEMORY.md'))).toBe(true);
    expect(fs.existsSync(path.join(missing, 'cairn', 'state.json'))).toBe(true);
  });
});

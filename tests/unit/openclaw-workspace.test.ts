/**
 * Workspaces resolved as OpenClaw 2026.9 resolves them: the fixture's state dir (written on
 * another machine, its workspace `/home/user/.openclaw/workspace`) finds its notes from a temp
 * copy, with a warning naming both paths; per-agent rules (`<defaults.workspace>/<id>`,
 * `<state>/workspace-<id>`, `~` against OPENCLAW_HOME, relative paths against the current
 * directory); a workspace that is nowhere is reported, not silently empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { runDoctor } from '../../electron/engine/app/doctor';
import { agentPaths } from '../../electron/engine/config/state-dir';
import type { WorkspaceEnv } from '../../electron/engine/config/workspace';
import { ConfigSchema } from '../../electron/engine/config/schema';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { tmpDir, writeTree } from '../helpers/tmp';

function config(raw: unknown) {
  return ConfigSchema.parse(raw);
}

/** The workspace the engine's per-agent paths use, and the warning that comes with it. */
function resolveAgentWorkspace(stateDir: string, cfg: ReturnType<typeof config>, agentId: string, where: WorkspaceEnv = {}) {
  const p = agentPaths(stateDir, cfg, agentId, undefined, where);
  return { workspace: p.workspace, ...(p.workspaceWarning ? { warning: p.workspaceWarning } : {}) };
}

describe('the OpenClaw fixture copied to a temp dir', () => {
  it('finds its notes in <state>/workspace although openclaw.json names /home/user/.openclaw/workspace, and says so', async () => {
    const oc = copyOpenClawState();
    const engine = createEngine({ stateDir: oc.stateDir, deps: { env: { HOME: tmpDir('cairn-home-') } } });
    const warned: string[] = [];
    const off = engine.events.on('engine.warning', (p) => warned.push(p.message));
    try {
      const api = createDirectClient(engine);
      const { files } = await api['memory.list']({});
      expect(files.map((f) => f.path)).toEqual(['MEMORY.md', 'memory/2026-12-01.md']);
      expect((await api['memory.read']({ path: 'memory/2026-12-01.md' })).text).toContain('quince');
      const relocated = path.join(oc.stateDir, 'workspace');
      expect(warned.some((w) => w.includes('/home/user/.openclaw/workspace') && w.includes(relocated))).toBe(true);
      const doctor = await runDoctor(engine.ctx, { native: false });
      const ws = doctor.find((c) => c.id === 'workspace');
      expect(ws?.status).toBe('warn');
      expect(ws?.detail).toContain(relocated);
    } finally {
      off();
      await engine.dispose();
    }
  });
});

describe('per-agent workspace rules', () => {
  it('gives the data-owner agent agents.defaults.workspace as-is and every other agent <workspace>/<id>', () => {
    const root = tmpDir();
    const ws = path.join(root, 'shared-ws');
    fs.mkdirSync(path.join(ws, 'work'), { recursive: true });
    const cfg = config({ agents: { defaults: { workspace: ws }, entries: { main: {}, work: {} } } });
    expect(resolveAgentWorkspace(root, cfg, 'main')).toEqual({ workspace: ws });
    expect(resolveAgentWorkspace(root, cfg, 'work')).toEqual({ workspace: path.join(ws, 'work') });
  });

  it('the owner is the default: true agent, else the first listed', () => {
    const root = tmpDir();
    const cfg = config({ agents: { defaults: { workspace: root }, entries: { main: {}, home: { default: true } } } });
    expect(resolveAgentWorkspace(root, cfg, 'home').workspace).toBe(root);
    expect(resolveAgentWorkspace(root, cfg, 'main').workspace).toBe(path.join(root, 'main'));
  });

  it('without any workspace setting: <state>/workspace for main, <state>/workspace-<id> for the others', () => {
    const state = tmpDir();
    const cfg = config({});
    expect(resolveAgentWorkspace(state, cfg, 'main')).toEqual({ workspace: path.join(state, 'workspace') });
    expect(resolveAgentWorkspace(state, cfg, 'work')).toEqual({ workspace: path.join(state, 'workspace-work') });
  });

  it('an agent\'s own workspace wins; ~ is OpenClaw\'s home (OPENCLAW_HOME); a relative path is against the current directory', () => {
    const state = tmpDir();
    const ocHome = writeTree(tmpDir('cairn-ochome-'), { 'notes/MEMORY.md': '# m\n' });
    const cwd = writeTree(tmpDir('cairn-cwd-'), { 'rel-ws/MEMORY.md': '# m\n' });
    const cfg = config({ agents: { defaults: { workspace: '/nowhere' }, entries: { a: { workspace: '~/notes' }, b: { workspace: 'rel-ws' } } } });
    expect(resolveAgentWorkspace(state, cfg, 'a', { env: { OPENCLAW_HOME: ocHome } })).toEqual({ workspace: path.join(ocHome, 'notes') });
    expect(resolveAgentWorkspace(state, cfg, 'b', { cwd })).toEqual({ workspace: path.join(cwd, 'rel-ws') });
  });

  it('a relative workspace missing from the current directory but present in the state dir is used there, with a warning', () => {
    const state = writeTree(tmpDir(), { 'workspace-work/MEMORY.md': '# w\n' });
    const cfg = config({ agents: { entries: { work: { workspace: 'workspace-work' } } } });
    const got = resolveAgentWorkspace(state, cfg, 'work', { cwd: tmpDir('cairn-cwd-') });
    expect(got.workspace).toBe(path.join(state, 'workspace-work'));
    expect(got.warning).toContain(path.join(state, 'workspace-work'));
  });

  it('a workspace that exists nowhere is reported by path and key, and kept as configured', async () => {
    const state = writeTree(tmpDir(), { 'cairn.json': JSON.stringify({ agents: { defaults: { workspace: '/srv/gone/notes' } } }) });
    const got = resolveAgentWorkspace(state, config({ agents: { defaults: { workspace: '/srv/gone/notes' } } }), 'main');
    expect(got.workspace).toBe('/srv/gone/notes');
    expect(got.warning).toMatch(/\/srv\/gone\/notes \(agents\.defaults\.workspace = "\/srv\/gone\/notes"\) does not exist/);
    const engine = createEngine({ stateDir: state, deps: { env: {} } });
    try {
      const ws = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'workspace');
      expect(ws?.status).toBe('warn');
      expect(ws?.detail).toContain('/srv/gone/notes');
    } finally {
      await engine.dispose();
    }
  });
});

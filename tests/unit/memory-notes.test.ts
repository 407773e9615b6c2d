/**
 * New, rename and delete note through the real engine on a temp state dir (issue 14.11):
 * atomic and never overwriting, checked against the version the user saw, MEMORY.md kept,
 * and all of it refused while the state dir is read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { tmpDir } from '../helpers/tmp';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

async function call(channel: string, req: unknown): Promise<{ ok: boolean; value?: { path: string; mtime: number; size: number; text?: string }; error?: { code: string; message: string } }> {
  return (await engine!.dispatcher.dispatch(channel, req)) as never;
}

describe('memory notes', () => {
  it('creates, renames and deletes a note without ever overwriting', async () => {
    const state = tmpDir();
    engine = createEngine({ stateDir: state });
    const ws = path.join(state, 'workspace');
    const made = await call('memory.create', { path: 'memory/ideas.md', text: '# Ideas\n' });
    expect(made.ok).toBe(true);
    expect(fs.readFileSync(path.join(ws, 'memory/ideas.md'), 'utf8')).toBe('# Ideas\n');
    const again = await call('memory.create', { path: 'memory/ideas.md', text: 'other' });
    expect(again.error?.code).toBe('conflict');
    expect(fs.readFileSync(path.join(ws, 'memory/ideas.md'), 'utf8')).toBe('# Ideas\n');

    fs.writeFileSync(path.join(ws, 'memory/taken.md'), 'keep me\n');
    expect((await call('memory.rename', { from: 'memory/ideas.md', to: 'memory/taken.md' })).error?.code).toBe('conflict');
    expect(fs.readFileSync(path.join(ws, 'memory/taken.md'), 'utf8')).toBe('keep me\n');
    // A stale version is refused.
    expect((await call('memory.rename', { from: 'memory/ideas.md', to: 'memory/later.md', expectedMtime: 1 })).error?.code).toBe('conflict');
    const moved = await call('memory.rename', { from: 'memory/ideas.md', to: 'memory/later.md', expectedMtime: made.value!.mtime });
    expect(moved.ok).toBe(true);
    expect(fs.existsSync(path.join(ws, 'memory/ideas.md'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, 'memory/later.md'), 'utf8')).toBe('# Ideas\n');

    expect((await call('memory.delete', { path: 'memory/later.md', expectedMtime: 1 })).error?.code).toBe('conflict');
    expect((await call('memory.delete', { path: 'memory/later.md', expectedMtime: moved.value!.mtime })).ok).toBe(true);
    expect(fs.existsSync(path.join(ws, 'memory/later.md'))).toBe(false);
    // Never outside the memory set, never MEMORY.md.
    expect((await call('memory.create', { path: '../escape.md', text: 'x' })).error?.code).toBe('forbidden');
    expect((await call('memory.delete', { path: 'MEMORY.md' })).error?.code).toBe('forbidden');
    expect(fs.existsSync(path.join(ws, 'MEMORY.md'))).toBe(true);
  });

  it('refuses all three in a read-only state dir', async () => {
    const state = tmpDir();
    engine = createEngine({ stateDir: state });
    fs.writeFileSync(path.join(state, 'workspace/memory/n.md'), 'n\n');
    await engine.dispatcher.dispatch('state.setWritable', { writable: false });
    expect((await call('memory.create', { path: 'memory/x.md', text: '' })).error?.code).toBe('read_only');
    expect((await call('memory.rename', { from: 'memory/n.md', to: 'memory/m.md' })).error?.code).toBe('read_only');
    expect((await call('memory.delete', { path: 'memory/n.md' })).error?.code).toBe('read_only');
    expect(fs.readFileSync(path.join(state, 'workspace/memory/n.md'), 'utf8')).toBe('n\n');
    expect(fs.existsSync(path.join(state, 'workspace/memory/x.md'))).toBe(false);
  });
});

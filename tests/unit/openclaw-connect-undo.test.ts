/**
 * Issue 38, `cairn connect openclaw --undo` after more than one connect and hand edits:
 * undo leaves OpenClaw as it was before Cairn's FIRST connect. Byte for byte while the file
 * is still exactly what that connect wrote; otherwise Cairn's own settings are taken out key
 * by key and the user's other edits made since are kept — and the message says which it did.
 * A symlinked openclaw.json is written through to its target. Consent is to the diff shown:
 * a file edited between the diff and the yes is refused, with the new diff.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { connectOpenClaw, openClawConnection } from '../../electron/engine/openclaw/connect';
import { setJson5Path } from '../../electron/engine/openclaw/json5-edit';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { tmpDir } from '../helpers/tmp';

const PLUGIN_DIR = path.join(path.dirname(path.dirname(CAIRN_BIN)), 'openclaw-plugin');
const launch = { node: process.execPath, bin: CAIRN_BIN, pluginDir: PLUGIN_DIR, env: {} };

const ORIGINAL = `// my OpenClaw
{
  agents: { defaults: { model: { primary: 'fake/fake-1' } } }, // keep me
  plugins: {
    allow: ['telegram'],
  },
}
`;

function ocDir(text = ORIGINAL): { stateDir: string; file: string; env: NodeJS.ProcessEnv } {
  const stateDir = path.join(tmpDir('cairn-ocundo-'), '.openclaw');
  fs.mkdirSync(stateDir);
  const file = path.join(stateDir, 'openclaw.json');
  fs.writeFileSync(file, text);
  return { stateDir, file, env: { CAIRN_DATA_DIR: tmpDir('cairn-data-') } };
}

/** The user's hand edit of one key (as an editor would: the rest of the file kept). */
function handEdit(file: string, keys: string[], value: unknown): void {
  fs.writeFileSync(file, setJson5Path(fs.readFileSync(file, 'utf8'), keys, value));
}

describe('undo after a second connect', () => {
  it('connect, plugin switched off by hand, connect again, undo: the original, byte for byte (CLI)', async () => {
    const oc = ocDir();
    const cli = (...args: string[]) => runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--yes', ...args], { env: oc.env });
    expect((await cli()).code).toBe(0);
    handEdit(oc.file, ['plugins', 'entries', 'cairn', 'enabled'], false);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false });
    expect((await cli()).code).toBe(0);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    const undone = await cli('--undo');
    expect(undone.code, undone.stderr).toBe(0);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(ORIGINAL);
    expect(undone.stderr).toContain('as it was before Cairn connected it');
  });

  it("an unrelated edit between two connects is kept; Cairn's settings go, and the message says so", async () => {
    const oc = ocDir();
    const deps = { env: oc.env, launch };
    await connectOpenClaw(oc.stateDir, {}, deps);
    // The user switches the plugin off, changes their model and allows another plugin …
    handEdit(oc.file, ['plugins', 'entries', 'cairn', 'enabled'], false);
    handEdit(oc.file, ['agents', 'defaults', 'model', 'primary'], 'fake/fake-2');
    handEdit(oc.file, ['plugins', 'allow'], ['telegram', 'cairn', 'discord']);
    // … and connects again.
    expect((await connectOpenClaw(oc.stateDir, {}, deps)).changed).toBe(true);
    const dry = await connectOpenClaw(oc.stateDir, { undo: true, dryRun: true }, deps);
    const res = await connectOpenClaw(oc.stateDir, { undo: true }, deps);
    expect(res.diff).toBe(dry.diff);
    const text = fs.readFileSync(oc.file, 'utf8');
    expect(JSON5.parse(text)).toEqual({ agents: { defaults: { model: { primary: 'fake/fake-2' } } }, plugins: { allow: ['telegram', 'discord'] } });
    for (const c of ['// my OpenClaw', '// keep me']) expect(text).toContain(c);
    expect(res.message).toContain('changed since Cairn first connected it');
    expect(res.message).toContain('plugins.entries.cairn removed');
    expect(res.message).toContain('every other edit made since was kept');
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false });
    await expect(connectOpenClaw(oc.stateDir, { undo: true }, deps)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a file reformatted since connect (openclaw config set) gets every setting back as before', async () => {
    const oc = ocDir();
    const deps = { env: oc.env, launch };
    await connectOpenClaw(oc.stateDir, {}, deps);
    // OpenClaw's own writer drops comments and re-indents.
    fs.writeFileSync(oc.file, `${JSON.stringify(JSON5.parse(fs.readFileSync(oc.file, 'utf8')), null, 4)}\n`);
    const res = await connectOpenClaw(oc.stateDir, { undo: true }, deps);
    expect(JSON5.parse(fs.readFileSync(oc.file, 'utf8'))).toEqual(JSON5.parse(ORIGINAL));
    expect(res.message).toContain('every setting is now as it was before Cairn connected');
  });
});

describe('a file Cairn connected before this data dir knew it (no copy from before)', () => {
  it("keeps the file without Cairn's plugin as the copy: undo never restores a connected file as the original", async () => {
    const oc = ocDir();
    // Connected by another Cairn (another data dir), then switched off by hand.
    await connectOpenClaw(oc.stateDir, {}, { env: { CAIRN_DATA_DIR: tmpDir('cairn-other-data-') }, launch });
    handEdit(oc.file, ['plugins', 'entries', 'cairn', 'enabled'], false);
    const deps = { env: oc.env, launch };
    await connectOpenClaw(oc.stateDir, {}, deps);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    const undone = await connectOpenClaw(oc.stateDir, { undo: true }, deps);
    expect(undone.changed).toBe(true);
    expect(JSON5.parse(fs.readFileSync(oc.file, 'utf8'))).toEqual(JSON5.parse(ORIGINAL));
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: false });
  });
});

describe('a symlinked openclaw.json (a dotfile manager keeps it as a link)', () => {
  it('connect and undo write through to the target; the link stays a link, the target keeps its mode', async () => {
    const oc = ocDir();
    // The real file lives in the dotfiles repository; openclaw.json links to it (relative link).
    const dotfiles = tmpDir('cairn-dotfiles-');
    const target = path.join(dotfiles, 'openclaw.json');
    fs.renameSync(oc.file, target);
    fs.chmodSync(target, 0o640);
    fs.symlinkSync(path.relative(oc.stateDir, target), oc.file);
    const isLinkToTarget = () => fs.lstatSync(oc.file).isSymbolicLink() && fs.realpathSync(oc.file) === fs.realpathSync(target);

    const cli = (...args: string[]) => runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--yes', ...args], { env: oc.env });
    const res = await cli();
    expect(res.code, res.stderr).toBe(0);
    expect(isLinkToTarget()).toBe(true);
    expect(JSON5.parse(fs.readFileSync(target, 'utf8'))).toHaveProperty(['plugins', 'entries', 'cairn', 'enabled'], true);
    expect(fs.statSync(target).mode & 0o777).toBe(0o640);
    expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true, canConnect: true });
    // Nothing left beside the link or the target (no temp file, no plain copy).
    expect(fs.readdirSync(oc.stateDir)).toEqual(['openclaw.json']);
    expect(fs.readdirSync(dotfiles)).toEqual(['openclaw.json']);

    const undone = await cli('--undo');
    expect(undone.code, undone.stderr).toBe(0);
    expect(isLinkToTarget()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe(ORIGINAL);
    expect(fs.statSync(target).mode & 0o777).toBe(0o640);
  });
});

describe('consent is to the change shown: a file edited between the diff and the yes is refused', () => {
  it('through the engine channel the window uses, for connect and for undo', async () => {
    const oc = ocDir();
    const engine = createEngine({ stateDir: tmpDir(), deps: { env: oc.env } });
    const api = createDirectClient(engine);
    try {
      const shown = await api['openclaw.connect']({ stateDir: oc.stateDir, dryRun: true });
      // While the diff is on screen, the user (or OpenClaw) edits the file.
      handEdit(oc.file, ['agents', 'defaults', 'model', 'primary'], 'fake/edited');
      const edited = fs.readFileSync(oc.file, 'utf8');
      const refused = await api['openclaw.connect']({ stateDir: oc.stateDir, expectDiffSha256: shown.diffSha256 });
      expect(refused).toMatchObject({ changed: false, stale: true, message: expect.stringContaining('nothing was written') });
      expect(fs.readFileSync(oc.file, 'utf8')).toBe(edited);
      // The fresh diff is the change as it is now (the edit is its context), and agreeing to it writes.
      expect(refused.diff).not.toBe(shown.diff);
      expect(refused.diff).toContain("fake/edited");
      expect(await api['openclaw.connect']({ stateDir: oc.stateDir, expectDiffSha256: refused.diffSha256 })).toMatchObject({ changed: true });
      expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });

      const undoShown = await api['openclaw.connect']({ stateDir: oc.stateDir, undo: true, dryRun: true });
      handEdit(oc.file, ['plugins', 'entries', 'cairn', 'config', 'maxHits'], 9);
      const undoRefused = await api['openclaw.connect']({ stateDir: oc.stateDir, undo: true, expectDiffSha256: undoShown.diffSha256 });
      expect(undoRefused).toMatchObject({ changed: false, stale: true });
      expect(openClawConnection(oc.stateDir)).toMatchObject({ connected: true });
    } finally {
      await engine.dispose();
    }
  });

  it('in the CLI: the yes on a terminal to a diff that is stale by then writes nothing and shows the new diff', async () => {
    const oc = ocDir();
    // A real pseudo-terminal (util-linux `script`); the answer is typed once the question is up.
    const child = spawn('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(CAIRN_BIN)} connect openclaw --state-dir ${JSON.stringify(oc.stateDir)}`, '/dev/null'], {
      env: { ...process.env, ...oc.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (out.includes('[y/N]')) resolve();
      });
    });
    handEdit(oc.file, ['agents', 'defaults', 'model', 'primary'], 'fake/edited');
    const edited = fs.readFileSync(oc.file, 'utf8');
    child.stdin.write('y\n');
    expect(await closed).toBe(1);
    expect(fs.readFileSync(oc.file, 'utf8')).toBe(edited);
    const after = out.slice(out.indexOf('[y/N]'));
    expect(after).toContain('nothing was written');
    // The change as it is now, printed again after the refusal.
    expect(after).toContain('+++ ');
    expect(after).toContain('fake/edited');
  });
});

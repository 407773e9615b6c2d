/**
 * The worker-bundle cache holds code this process runs, so it is used only from a folder
 * and file this user alone can write (embed/worker-bundle.ts): a folder planted by another
 * user, a symlink, or a folder others can write is refused with a warning naming it, and the
 * worker code is bundled in memory instead — the planted code never runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWorkerBundle, bundleCacheFile, workerBundleDir } from '../../electron/engine/embed/worker-bundle';
import { tmpDir } from '../helpers/tmp';

const ROOT = process.getuid?.() === 0;
/**
 * Planting a folder "by another user" needs root: only root can give a folder to another uid
 * (chown). Run as another user, that test is skipped and its title says why; the symlink and
 * shared-folder refusals below run for every user.
 */
const NEEDS_ROOT = ROOT ? '' : ' (skipped: needs root, the only user that can chown a folder to another uid)';
const NOBODY = 65534;
const PLANTED = 'module.exports.value = "planted";';

function load(code: string | null): unknown {
  const module = { exports: {} as Record<string, unknown> };
  vm.runInNewContext(code ?? '', { module, exports: module.exports, require: () => ({}) });
  return module.exports.value;
}

/** A module whose bundle exports 42. */
function entryModule(): string {
  const dir = tmpDir('cairn-wbcache-src-');
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(entry, 'export const value: number = 42;\n');
  return entry;
}

/** Plant a cache file for `entry` in `dir` whose recorded inputs match: the old check accepted it. */
function plant(dir: string, entry: string): string {
  const st = fs.statSync(entry);
  const file = bundleCacheFile(entry, dir);
  fs.writeFileSync(file, JSON.stringify({ inputs: { [entry]: [st.mtimeMs, st.size] }, code: PLANTED }));
  return file;
}

const savedEnv = { TMPDIR: process.env.TMPDIR, CAIRN_DATA_DIR: process.env.CAIRN_DATA_DIR };
afterEach(() => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('worker bundle cache', () => {
  it.skipIf(!ROOT)(`never runs code from a folder another user created first (in the temp dir or in Cairn's data dir)${NEEDS_ROOT}`, async () => {
    const entry = entryModule();
    // The temp dir everyone shares, and a data dir where another user got in first.
    const shared = tmpDir('cairn-wbcache-tmp-');
    fs.chmodSync(shared, 0o1777);
    process.env.TMPDIR = shared;
    const data = tmpDir('cairn-wbcache-data-');
    process.env.CAIRN_DATA_DIR = data;
    const uid = process.getuid?.() ?? 0;
    for (const dir of [path.join(shared, `cairn-${uid}-worker-bundles`), workerBundleDir()]) {
      fs.mkdirSync(dir, { mode: 0o777 });
      fs.chmodSync(dir, 0o777);
      const file = plant(dir, entry);
      fs.chownSync(dir, NOBODY, NOBODY);
      fs.chownSync(file, NOBODY, NOBODY);
    }
    const warnings: string[] = [];
    const code = await buildWorkerBundle(entry, { onRefused: (m) => warnings.push(m) });
    expect(load(code)).toBe(42);
    expect(warnings).toEqual([`not using the worker bundle cache ${workerBundleDir()}: it is owned by uid ${NOBODY}, not by this user (uid ${uid}); bundling in memory instead`]);
    // Nothing of ours was left in the foreign folder.
    expect(fs.readdirSync(workerBundleDir())).toEqual([path.basename(bundleCacheFile(entry, workerBundleDir()))]);
  });

  it('refuses a symlinked folder, a folder others can write, and a symlinked or shared file', async () => {
    const entry = entryModule();
    const data = tmpDir('cairn-wbcache-data-');
    const elsewhere = path.join(data, 'elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    plant(elsewhere, entry);
    const cases: { dir: string; why: (dir: string) => string; setup: (dir: string) => void }[] = [
      { dir: path.join(data, 'link'), setup: (d) => fs.symlinkSync(elsewhere, d), why: (d) => `${d}: it is a symlink` },
      {
        dir: path.join(data, 'open'),
        setup: (d) => {
          fs.mkdirSync(d);
          fs.chmodSync(d, 0o777);
          plant(d, entry);
        },
        why: (d) => `${d}: it is writable by other users (mode 0777)`,
      },
      {
        dir: path.join(data, 'filelink'),
        setup: (d) => {
          fs.mkdirSync(d, { mode: 0o700 });
          fs.symlinkSync(bundleCacheFile(entry, elsewhere), bundleCacheFile(entry, d));
        },
        why: (d) => `${bundleCacheFile(entry, d)}: it is a symlink`,
      },
      {
        dir: path.join(data, 'sharedfile'),
        setup: (d) => {
          fs.mkdirSync(d, { mode: 0o700 });
          fs.chmodSync(plant(d, entry), 0o666);
        },
        why: (d) => `${bundleCacheFile(entry, d)}: it is writable by other users (mode 0666)`,
      },
    ];
    for (const c of cases) {
      c.setup(c.dir);
      const warnings: string[] = [];
      const code = await buildWorkerBundle(entry, { dir: c.dir, onRefused: (m) => warnings.push(m) });
      expect(load(code), c.dir).toBe(42);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(c.why(c.dir));
    }
    // The planted copy is still as it was: nothing was written through the links.
    expect(JSON.parse(fs.readFileSync(bundleCacheFile(entry, elsewhere), 'utf8')).code).toBe(PLANTED);
  });

  it("creates its own folder at 0700 and its file at 0600 in Cairn's data dir, and reuses them", async () => {
    const entry = entryModule();
    process.env.CAIRN_DATA_DIR = tmpDir('cairn-wbcache-data-');
    const warnings: string[] = [];
    const first = await buildWorkerBundle(entry, { onRefused: (m) => warnings.push(m) });
    const dir = workerBundleDir();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const file = bundleCacheFile(entry, dir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // The cached copy is what the next call runs: mark it and see the mark come back.
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as { code: string };
    fs.writeFileSync(file, JSON.stringify({ ...cached, code: `${cached.code}\n// reused` }));
    expect(await buildWorkerBundle(entry, { onRefused: (m) => warnings.push(m) })).toBe(`${first}\n// reused`);
    expect(warnings).toEqual([]);
  });
});

// Is the CLI bundle (scripts/build-cli.mjs) fresh? Used by bin/cairn.mjs on every start, so
// it is cheap: one JSON read and a stat per source file the bundle was built from. Any
// source edited after the build (or missing) makes it stale, and the CLI runs from the
// TypeScript sources through tsx instead. CAIRN_CLI_SOURCE=1 forces the sources.
import fs from 'node:fs';
import path from 'node:path';

export const BUNDLE_DIR = 'dist/cli/bundle';
export const MANIFEST = `${BUNDLE_DIR}/inputs.json`;

/** Absolute path of the bundle's entry when it is fresh, else null. */
export function freshCliBundle(root) {
  if (process.env.CAIRN_CLI_SOURCE === '1') return null;
  try {
    const { builtAt, inputs } = JSON.parse(fs.readFileSync(path.join(root, MANIFEST), 'utf8'));
    if (!Array.isArray(inputs) || inputs.length === 0) return null;
    // ~400 files on every start: plain concatenation (the inputs are relative, '/'-separated,
    // which every platform's fs takes), not path.join's normalising, which cost a few ms here.
    const base = root + path.sep;
    for (const f of inputs) {
      const st = fs.statSync(base + f, { throwIfNoEntry: false });
      if (!st || st.mtimeMs > builtAt) return null;
    }
    const entry = path.join(root, BUNDLE_DIR, 'cairn-cli.js');
    return fs.existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

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
    for (const f of inputs) if (fs.statSync(path.join(root, f)).mtimeMs > builtAt) return null;
    const entry = path.join(root, BUNDLE_DIR, 'cairn-cli.js');
    return fs.existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

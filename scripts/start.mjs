// `npm start`: the app. Opens the Electron window where the Electron binary is installed;
// otherwise says so in one line and serves the UI on 127.0.0.1, opened in Chromium's app
// mode when a Chromium is on PATH (else the URL is printed).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);

await import('./build.mjs');

function electronBinary() {
  // Read the path the electron package records after its download, without require('electron'):
  // newer versions try to download the binary on first require, which fails offline.
  try {
    const dir = path.dirname(require.resolve('electron/package.json'));
    const rel = fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
    const bin = path.join(dir, 'dist', rel);
    return fs.existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

const electron = electronBinary();
if (electron) {
  const child = spawn(electron, [root, ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('Electron is not installed here; serving the UI on 127.0.0.1 instead.');
  const child = spawn(process.execPath, [path.join(root, 'bin/cairn.mjs'), ...args, 'serve', '--open'], { stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}

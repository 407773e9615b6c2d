// Build the renderer once before the browser suites, so they test the current sources.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(__dirname, '..', '..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'renderer'], { cwd: root, stdio: 'inherit' });
}

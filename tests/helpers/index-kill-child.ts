/**
 * The child of the resumable-rebuild test: runs a full index of the state dir given on the
 * command line with a FakeEmbedder that embeds `stopAfter` texts, then prints
 * "stalled <n>" and never returns (as if a slow model were mid-batch), so the parent can
 * SIGKILL it in the middle of a rebuild.
 *   node --import tsx tests/helpers/index-kill-child.ts <stateDir> <stopAfter>
 */
import type { EmbedOptions } from '../../electron/engine/embed/types';
import { createEngine } from '../../electron/engine/engine';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const [stateDir, stopAfter] = process.argv.slice(2) as [string, string];

class StallingEmbedder extends FakeEmbedder {
  override async embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]> {
    if (this.textsEmbedded >= Number(stopAfter)) {
      process.stdout.write(`stalled ${this.textsEmbedded}\n`);
      return new Promise(() => {});
    }
    return super.embed(texts, opts);
  }
}

const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new StallingEmbedder({ provider: 'fake-slow' }) } });
await engine.dispatcher.dispatch('index.sync', {});

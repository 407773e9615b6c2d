/**
 * A FakeEmbedder whose document batches wait, once armed, until the test opens the gate: "while
 * a sync runs" becomes an event the test waits on, not a race (search-during-sync, search-upgrade).
 */
import type { Embedder, EmbedOptions } from '../../electron/engine/embed/types';
import { FakeEmbedder } from '../../testkit/fake-embedder';

/** A FakeEmbedder whose document batches wait, once armed, until the gate opens. */
export class GatedEmbedder implements Embedder {
  private readonly inner = new FakeEmbedder();
  readonly provider = this.inner.provider;
  readonly model = this.inner.model;
  readonly dims = this.inner.dims;
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};
  private entered: () => void = () => {};
  /** Resolves when a document batch reached the closed gate. */
  reached: Promise<void> = Promise.resolve();

  get id(): string {
    return this.inner.id;
  }

  arm(): void {
    this.gate = new Promise((r) => (this.open = r));
    this.reached = new Promise((r) => (this.entered = r));
  }

  release(): void {
    this.gate = null;
    this.open();
  }

  /** Queries embedded while the gate was closed (a search that did not wait for the sync). */
  queriesWhileHeld = 0;

  async embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]> {
    if (opts?.kind === 'query' && this.gate) this.queriesWhileHeld++;
    if (opts?.kind !== 'query' && this.gate) {
      this.entered();
      await this.gate;
    }
    return this.inner.embed(texts, opts);
  }

  async dispose(): Promise<void> {}
}

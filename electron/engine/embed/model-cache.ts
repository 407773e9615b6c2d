/**
 * Static models, shared by the embedders of one engine: every agent's index
 * (and a settings change that reopens one) asks for the same file, and each copy held
 * its whole model (8 MB for potion). The engine holds one cache as a context member
 * (`STATIC_MODELS` in index/registry.ts), so the models go with the engine's `dispose`;
 * nothing stays behind at module level. A file replaced on disk (another mtime or size) is read again.
 */
import fs from 'node:fs';
import { StaticModel } from './static-format';

/** Loaded static models by file. */
export class StaticModelCache {
  private readonly models = new Map<string, { key: string; model: Promise<StaticModel> }>();

  private static stamp(file: string): string {
    const st = fs.statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  }

  /**
   * The model of `file`: the cached one, else opened (StaticModel.open: all but the vectors,
   * 0.7 MB for potion, read now; each row when first used).
   */
  load(file: string): Promise<StaticModel> {
    const key = StaticModelCache.stamp(file);
    const hit = this.models.get(file);
    if (hit && hit.key === key) return hit.model;
    const model = new Promise<StaticModel>((resolve) => resolve(StaticModel.open(file)));
    // A failed read is not remembered: the next caller tries again.
    model.catch(() => this.models.get(file)?.model === model && this.models.delete(file));
    this.models.set(file, { key, model });
    return model;
  }

  /** The same, synchronously (for a caller that cannot wait), cached for the next caller. */
  loadSync(file: string): StaticModel {
    const model = StaticModel.open(file);
    this.models.set(file, { key: StaticModelCache.stamp(file), model: Promise.resolve(model) });
    return model;
  }

  /** Whether `file`'s current version is cached (loaded or loading). */
  has(file: string): boolean {
    const hit = this.models.get(file);
    return !!hit && fs.existsSync(file) && hit.key === StaticModelCache.stamp(file);
  }

  /** Files cached (tests). */
  get size(): number {
    return this.models.size;
  }

  /** Drop every model (the embedders still holding one keep it until they go). */
  clear(): void {
    this.models.clear();
  }
}

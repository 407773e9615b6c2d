/**
 * The tab in OpenClaw's Control UI runs in an opaque-origin sandbox, where touching
 * localStorage or sessionStorage throws. The window keeps small preferences there (theme,
 * search history, drafts): in such a frame they live in memory for the frame's life instead.
 * Imported first by main.tsx; does nothing where storage works.
 */

class MemoryStorage implements Storage {
  private readonly map = new Map<string, string>();
  get length(): number {
    return this.map.size;
  }
  clear(): void {
    this.map.clear();
  }
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
  setItem(key: string, value: string): void {
    this.map.set(key, String(value));
  }
}

for (const name of ['localStorage', 'sessionStorage'] as const) {
  try {
    void window[name].length;
  } catch {
    Object.defineProperty(window, name, { value: new MemoryStorage(), configurable: true });
  }
}

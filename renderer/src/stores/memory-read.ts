/**
 * How the window reads a memory file, behind every door (the app, `cairn serve`, OpenClaw's
 * tab): in pages of `memory.read` with `offset`/`limit`, joined here, so no one answer — and
 * no one JSON line through OpenClaw's Gateway — carries a 200 MB note. A file that changes
 * between pages is read again from its start.
 */
import type { LineAnnotations, MemoryFileText } from '../../../shared/types/search';
import { api } from '../api';

/** Bytes per page: a few MB, far below what one answer may carry (MEMORY_PAGE_MAX_BYTES). */
export const MEMORY_READ_PAGE_BYTES = 4 * 1024 * 1024;

/** The whole file at `path`, read page by page. */
export async function readMemory(path: string, agentId?: string): Promise<MemoryFileText> {
  for (let attempt = 0; ; attempt++) {
    const first = await api['memory.read']({ path, ...(agentId ? { agentId } : {}), offset: 0, limit: MEMORY_READ_PAGE_BYTES });
    const texts = [first.text];
    const annotations: LineAnnotations[] = [...(first.annotations ?? [])];
    let line = 1 + countLines(first.text);
    let next = first.next;
    let changed = false;
    while (next !== undefined) {
      const page = await api['memory.read']({ path, ...(agentId ? { agentId } : {}), offset: next, limit: MEMORY_READ_PAGE_BYTES, line });
      if (page.mtime !== first.mtime || page.size !== first.size) {
        changed = true;
        break;
      }
      texts.push(page.text);
      annotations.push(...(page.annotations ?? []));
      line += countLines(page.text);
      next = page.next;
    }
    if (changed) {
      if (attempt < 3) continue;
      throw new Error(`${path} kept changing while it was read`);
    }
    const { offset: _o, next: _n, annotations: _a, ...rest } = first;
    return { ...rest, text: texts.join(''), ...(annotations.length ? { annotations } : {}) };
  }
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The file's path, size and mtime (with its first bytes): what a check for a change on disk needs. */
export async function readMemoryHead(path: string): Promise<MemoryFileText> {
  return api['memory.read']({ path, offset: 0, limit: 1 });
}

/**
 * Files the summarised part read and modified, from its tool calls, carried forward from the
 * previous compaction's `details` (pi's `details.readFiles` / `details.modifiedFiles`).
 */
import type { Message } from '../../../shared/types/messages';
import type { CompactionDetails } from '../transcript/types';

const READ = new Set(['read', 'read_file', 'view', 'cat']);
const WRITE = new Set(['write', 'edit', 'write_file', 'edit_file', 'apply_patch', 'multiedit']);

export function collectFileOps(messages: readonly Message[], previous?: CompactionDetails): { readFiles: string[]; modifiedFiles: string[] } {
  const read = new Set<string>(Array.isArray(previous?.readFiles) ? previous.readFiles : []);
  const modified = new Set<string>(Array.isArray(previous?.modifiedFiles) ? previous.modifiedFiles : []);
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const b of m.content) {
      if (b.type !== 'toolCall') continue;
      const args = (b.arguments ?? {}) as Record<string, unknown>;
      const p = typeof args.path === 'string' ? args.path : typeof args.file_path === 'string' ? args.file_path : undefined;
      if (!p) continue;
      const name = b.name.toLowerCase();
      if (WRITE.has(name)) modified.add(p);
      else if (READ.has(name)) read.add(p);
    }
  }
  return { readFiles: [...read].filter((f) => !modified.has(f)).sort(), modifiedFiles: [...modified].sort() };
}

/** pi's file-list tags appended to a summary. */
export function formatFileOps(ops: { readFiles: string[]; modifiedFiles: string[] }): string {
  const parts: string[] = [];
  if (ops.readFiles.length) parts.push(`<read-files>\n${ops.readFiles.join('\n')}\n</read-files>`);
  if (ops.modifiedFiles.length) parts.push(`<modified-files>\n${ops.modifiedFiles.join('\n')}\n</modified-files>`);
  return parts.length ? `\n\n${parts.join('\n\n')}` : '';
}

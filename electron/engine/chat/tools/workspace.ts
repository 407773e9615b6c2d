/**
 * The assistant's file tools — `read`, `write`, `edit` — confined to the agent's workspace.
 * `write` and `edit` are refused while the state dir is read-only (a directory Cairn did not
 * create). Writes are atomic, so a crash never leaves half a file. Reads are asynchronous
 * and refuse anything but regular files (a FIFO in the workspace would otherwise block the
 * engine's thread for good: the turn never ends and cancel cannot run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeSystemError, errorMessage, isSystemError } from '../../core/errors';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { NotRegularFileError, READ_MAX_CHARS, READ_MAX_FILE_BYTES, readRegularFile, type CappedRead } from '../../util/safe-read';
import { fail, intArg, invalidJson, isErr, ok, strArg, type Tool } from './types';
import { relativeInside } from '../../util/path-inside';
import { resolveInWorkspace } from './workspace-path';


/** Read a workspace file for a tool, or the error result the model should see. */
async function readForTool(abs: string, rel: string): Promise<CappedRead | { error: string }> {
  try {
    return await readRegularFile(abs, READ_MAX_FILE_BYTES);
  } catch (err) {
    if (err instanceof NotRegularFileError) return { error: `${rel}: refused: not a regular file (${err.kind})` };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { error: `${rel}: no such file in the workspace` };
    return { error: `${rel}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

/**
 * A failed write in words for the model: a system error (a folder on the path missing or a
 * dangling link, permission, a full disk) says what failed on which workspace path.
 */
function fsFailure(workspace: string, err: unknown): string {
  if (!isSystemError(err) || !err.path) return errorMessage(err);
  return describeSystemError(err, relativeInside(workspace, err.path) || err.path).message;
}

export interface WorkspaceToolOptions {
  workspace: string;
  /** Checked at call time: the user may switch writing on or off mid-session. */
  writable: () => boolean;
}

function readTool(o: WorkspaceToolOptions): Tool {
  return {
    spec: {
      name: 'read',
      description: 'Read a text file in the workspace (paths are relative to it). Use offset (1-based line) and limit (lines) for long files.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the workspace, e.g. "MEMORY.md" or "memory/2026-01-31.md"' },
          offset: { type: 'integer', description: 'First line to read (1-based)' },
          limit: { type: 'integer', description: 'Number of lines to read' },
        },
        required: ['path'],
      },
    },
    async run(args) {
      const bad = invalidJson(args);
      if (bad) return bad;
      const p = strArg(args, 'path', true);
      const offset = intArg(args, 'offset');
      const limit = intArg(args, 'limit');
      for (const v of [p, offset, limit]) if (isErr(v)) return fail(v.error);
      const r = resolveInWorkspace(o.workspace, p as string);
      if ('error' in r) return fail(r.error);
      let st: fs.Stats;
      try {
        st = await fs.promises.stat(r.abs);
      } catch {
        return fail(`${r.rel}: no such file in the workspace`);
      }
      if (st.isDirectory()) {
        const names = (await fs.promises.readdir(r.abs, { withFileTypes: true })).map((d) => (d.isDirectory() ? `${d.name}/` : d.name));
        return ok(`${r.rel} is a directory:\n${names.sort().join('\n')}`);
      }
      const got = await readForTool(r.abs, r.rel);
      if ('error' in got) return fail(got.error);
      const all = got.text.split('\n');
      const start = Math.max(1, (offset as number | undefined) ?? 1);
      if (start > all.length) return fail(`${r.rel}: offset ${start} is past the end (${all.length} lines)`);
      const lines = all.slice(start - 1, limit !== undefined ? start - 1 + (limit as number) : undefined);
      let text = lines.join('\n');
      let note = '';
      if (text.length > READ_MAX_CHARS) {
        text = text.slice(0, READ_MAX_CHARS);
        const shown = text.split('\n').length;
        note = `\n\n[Truncated at ${READ_MAX_CHARS} chars: lines ${start}–${start + shown - 1} of ${all.length}; continue with offset ${start + shown - 1}.]`;
      }
      if (got.truncated) note += `\n\n[${r.rel} is ${got.size} bytes; only its first ${READ_MAX_FILE_BYTES} bytes can be read.]`;
      return ok(text + note, { path: r.rel, lines: all.length });
    },
  };
}

function refuseReadOnly(o: WorkspaceToolOptions, tool: string): ReturnType<typeof fail> | undefined {
  if (o.writable()) return undefined;
  return fail(`${tool} refused: the state directory is read-only (Cairn did not create it); the user can turn writing on in Settings`);
}

function writeTool(o: WorkspaceToolOptions): Tool {
  return {
    spec: {
      name: 'write',
      description: 'Create or overwrite a text file in the workspace (parent folders are created).',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'File path relative to the workspace' }, content: { type: 'string', description: 'The whole new file content' } },
        required: ['path', 'content'],
      },
    },
    run(args) {
      const refused = invalidJson(args) ?? refuseReadOnly(o, 'write');
      if (refused) return refused;
      const p = strArg(args, 'path', true);
      const content = strArg(args, 'content', true);
      for (const v of [p, content]) if (isErr(v)) return fail(v.error);
      const r = resolveInWorkspace(o.workspace, p as string);
      if ('error' in r) return fail(r.error);
      if (fs.existsSync(r.abs) && fs.statSync(r.abs).isDirectory()) return fail(`${r.rel} is a directory`);
      const existed = fs.existsSync(r.abs);
      try {
        fs.mkdirSync(path.dirname(r.abs), { recursive: true });
        writeFileAtomicSync(r.abs, content as string);
      } catch (err) {
        return fail(`write failed: ${fsFailure(o.workspace, err)}`);
      }
      const bytes = Buffer.byteLength(content as string, 'utf8');
      return ok(`${existed ? 'Overwrote' : 'Created'} ${r.rel} (${bytes} bytes).`, { path: r.rel, bytes, created: !existed });
    },
  };
}

function editTool(o: WorkspaceToolOptions): Tool {
  return {
    spec: {
      name: 'edit',
      description: 'Replace one exact occurrence of oldText with newText in a workspace file. oldText must match exactly once (include surrounding lines to make it unique).',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the workspace' },
          oldText: { type: 'string', description: 'Exact text to replace' },
          newText: { type: 'string', description: 'Replacement text' },
        },
        required: ['path', 'oldText', 'newText'],
      },
    },
    async run(args) {
      const refused = invalidJson(args) ?? refuseReadOnly(o, 'edit');
      if (refused) return refused;
      const p = strArg(args, 'path', true);
      const oldText = strArg(args, 'oldText', true);
      const newText = strArg(args, 'newText', true);
      for (const v of [p, oldText, newText]) if (isErr(v)) return fail(v.error);
      if (!oldText) return fail('oldText must not be empty');
      const r = resolveInWorkspace(o.workspace, p as string);
      if ('error' in r) return fail(r.error);
      const got = await readForTool(r.abs, r.rel);
      if ('error' in got) return fail(got.error);
      // Writing back a partial read would cut the file: refuse instead.
      if (got.truncated) return fail(`${r.rel}: refused: ${got.size} bytes is more than edit handles (${READ_MAX_FILE_BYTES})`);
      const text = got.text;
      const first = text.indexOf(oldText as string);
      if (first === -1) return fail(`${r.rel}: oldText was not found; read the file and copy the text exactly`);
      const count = text.split(oldText as string).length - 1;
      if (count > 1) return fail(`${r.rel}: oldText occurs ${count} times; include more surrounding text so it matches once`);
      const next = text.slice(0, first) + (newText as string) + text.slice(first + (oldText as string).length);
      try {
        writeFileAtomicSync(r.abs, next);
      } catch (err) {
        return fail(`edit failed: ${fsFailure(o.workspace, err)}`);
      }
      const line = text.slice(0, first).split('\n').length;
      return ok(`Edited ${r.rel} at line ${line}.`, { path: r.rel, line });
    },
  };
}

/** `read`, `write` and `edit` over the workspace. */
export function workspaceTools(o: WorkspaceToolOptions): Tool[] {
  return [readTool(o), writeTool(o), editTool(o)];
}

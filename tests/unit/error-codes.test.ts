/**
 * Every error reaches a client with its contract code and a readable message, mapped in one
 * place (the dispatcher): each domain error class of the engine (found by reading the source,
 * so a new class without a code fails here), and raw Node system errors (ENOENT, EISDIR,
 * ENOSPC…) that reach the dispatcher, which say in words what failed on which path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CairnError, createClient } from '../../shared/client';
import type { ErrorCode } from '../../shared/contract/define';
import { createDispatcher, type Handlers } from '../../electron/engine/rpc/dispatcher';
import { describeSystemError, EngineError, type SystemError } from '../../electron/engine/core/errors';
import { QmdError } from '../../electron/engine/qmd/run';
import { OpenClawLockedError } from '../../electron/engine/util/openclaw-lock';
import { NotRegularFileError } from '../../electron/engine/util/safe-read';
import { FileLockedError } from '../../electron/engine/util/file-lock';
import { appendFileDurableSync, writeFileAtomicSync } from '../../electron/engine/util/atomic-write';
import { TranscriptChangedError } from '../../electron/engine/transcript/prefix';
import { openStateDir } from '../../electron/engine/config/state-dir';
import { parseJson5File } from '../../electron/engine/config/load';
import { StreamIdleError } from '../../electron/engine/llm/sse';
import { ModelDownloadError } from '../../electron/engine/llm/llama-download';
import { LlmConfigError } from '../../electron/engine/llm/factory';
import { LocalModelError } from '../../electron/engine/llm/llama';
import { AuthError, ContextOverflowError } from '../../electron/engine/llm/types';
import { LlmHttpError } from '../../electron/engine/llm/errors';
import { RemoteEmbedError } from '../../electron/engine/embed/remote/http';
import { MemoryPathError } from '../../electron/engine/index/memory-paths';
import { MemoryConflictError } from '../../electron/engine/index/memory-files';
import { DemoDirTakenError } from '../../electron/engine/app/demo/build';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import { appendLinesDurable, createTranscriptFile } from '../../electron/engine/transcript/append';
import { openForeignSqlite } from '../../electron/engine/sessions/store/sqlite-readonly';
import { tmpDir } from '../helpers/tmp';

const root = path.resolve(__dirname, '..', '..');

/** The error a client sees when the handler of a channel throws what `fail` throws. */
async function clientSees(fail: () => unknown): Promise<CairnError> {
  const handlers = {
    'config.validate': () => {
      throw fail();
    },
  } as unknown as Handlers;
  const d = createDispatcher(handlers);
  const api = createClient({ invoke: (c, r, o) => d.dispatch(c, r, o), subscribe: () => () => undefined });
  const err = await api['config.validate']({ keyPath: 'a', value: 1 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CairnError);
  return err as CairnError;
}

/** The value `fn` throws (for errors made by the real code path rather than by hand). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** Each domain error class: one made the way the engine makes it, and the code it must cross with. */
const domainErrors: Record<string, { make: () => Error; code: ErrorCode }> = {
  EngineError: { make: () => new EngineError('not_found', 'nothing here'), code: 'not_found' },
  QmdError: { make: () => new QmdError('missing', 'qmd is not installed: install it or set memory.backend to "builtin"'), code: 'unavailable' },
  OpenClawLockedError: { make: () => new OpenClawLockedError('/s/a.jsonl', { lockPath: '/s/a.jsonl.lock', pid: 42, createdAt: null }), code: 'conflict' },
  NotRegularFileError: { make: () => new NotRegularFileError('/w/fifo', 'FIFO'), code: 'forbidden' },
  FileLockedError: { make: () => new FileLockedError('/s/sessions.json', 15_000), code: 'conflict' },
  TranscriptChangedError: { make: () => new TranscriptChangedError('/s/a.jsonl'), code: 'conflict' },
  StateDirMissingError: {
    make: () => thrownBy(() => openStateDir(path.join(tmpDir(), 'missing'), { create: false, env: {} })) as Error,
    code: 'not_found',
  },
  ConfigParseError: {
    make: () => thrownBy(() => parseJson5File('/s/openclaw.json', '{ "agents": ')) as Error,
    code: 'unavailable',
  },
  LlmHttpError: { make: () => new LlmHttpError('OpenAI answered 500: server error', 500, true), code: 'unavailable' },
  StreamIdleError: { make: () => new StreamIdleError(600_000), code: 'unavailable' },
  ModelDownloadError: { make: () => new ModelDownloadError('the download of hf:a/b/c.gguf failed: 404'), code: 'unavailable' },
  LlmConfigError: { make: () => new LlmConfigError('set cairn.llm.apiKey or OPENAI_API_KEY'), code: 'unavailable' },
  LocalModelError: { make: () => new LocalModelError('/m/x.gguf: not a GGUF chat model'), code: 'unavailable' },
  ContextOverflowError: { make: () => new ContextOverflowError('the conversation does not fit the context window'), code: 'unavailable' },
  AuthError: { make: () => new AuthError('the API key was rejected (401): check OPENAI_API_KEY'), code: 'unavailable' },
  RemoteEmbedError: { make: () => new RemoteEmbedError('openai', 503, 'openai embeddings answered 503'), code: 'unavailable' },
  MemoryPathError: { make: () => new MemoryPathError('forbidden', '"../x": outside the workspace'), code: 'forbidden' },
  MemoryConflictError: { make: () => new MemoryConflictError('MEMORY.md changed on disk since it was opened'), code: 'conflict' },
  DemoDirTakenError: { make: () => new DemoDirTakenError('/home/me/.local/state/cairn/demo'), code: 'conflict' },
};

/** Classes that never leave the module that throws them (so have no contract code), and why. */
const staysInside: Record<string, string> = {
  RejectedSummaryError: 'compaction/compact.ts catches it itself and falls back to the extract',
  InflateError: 'sessions/store/openclaw-events.ts catches it and reports the event as unreadable',
};

/** Every `class X extends <an Error class>` in the engine's source. */
function engineErrorClasses(): string[] {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name.endsWith('.ts')) for (const m of fs.readFileSync(p, 'utf8').matchAll(/\bclass (\w+) extends (\w*Error)\b/g)) names.add(m[1] as string);
    }
  };
  walk(path.join(root, 'electron', 'engine'));
  return [...names].sort();
}

describe('errors reach the client with their code', () => {
  it('every error class of the engine is walked here', () => {
    const found = engineErrorClasses();
    expect(found.length).toBeGreaterThan(15);
    expect(found.filter((n) => !(n in domainErrors) && !(n in staysInside))).toEqual([]);
  });

  it.each(Object.entries(domainErrors))('%s crosses with its contract code and its own message', async (_name, { make, code }) => {
    const err = make();
    expect(err).toBeInstanceOf(EngineError);
    const seen = await clientSees(() => err);
    expect(seen.code).toBe(code);
    expect(seen.code).not.toBe('internal');
    expect(seen.message).toBe(err.message);
    expect(seen.message.length).toBeGreaterThan(10);
  });

  it('a cancelled call is cancelled whatever its handler threw on the way out', async () => {
    const handlers = {
      'config.validate': (_req: unknown, { signal }: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new LlmHttpError('socket closed', undefined, true)))),
    } as unknown as Handlers;
    const d = createDispatcher(handlers);
    const p = d.dispatch('config.validate', { keyPath: 'a', value: 1 }, 'op-1');
    await d.dispatch('op.cancel', { opId: 'op-1' });
    expect(await p).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});

describe('files the engine cannot use reach the client with a code, not internal', () => {
  it('a broken sessions.json, a missing or existing transcript, a file that is no SQLite store', async () => {
    const dir = tmpDir();
    const index = path.join(dir, 'sessions.json');
    fs.writeFileSync(index, '{"a": ');
    const transcript = path.join(dir, 's.jsonl');
    const notDb = path.join(dir, 'openclaw-agent.sqlite');
    fs.writeFileSync(notDb, 'not a database, just text that is long enough to have a header '.repeat(3));
    const cases: [() => unknown, ErrorCode, RegExp][] = [
      [() => readSessionIndex(index), 'unavailable', /sessions\.json: not valid JSON/],
      [() => appendLinesDurable(transcript, ['{}']), 'not_found', /transcript not found: .*s\.jsonl/],
      [() => (createTranscriptFile(transcript, { id: 's', timestamp: '2026-01-01T00:00:00Z', cwd: dir }), createTranscriptFile(transcript, { id: 's', timestamp: '2026-01-01T00:00:00Z', cwd: dir })), 'conflict', /transcript already exists/],
      [() => openForeignSqlite(notDb, path.join(dir, 'snap')), 'unavailable', /openclaw-agent\.sqlite: cannot read the database \(not an SQLite database/],
    ];
    for (const [fn, code, message] of cases) {
      const seen = await clientSees(() => thrownBy(fn));
      expect(seen.code, seen.message).toBe(code);
      expect(seen.message).toMatch(message);
    }
  });
});

describe('raw Node system errors reach the client in words', () => {
  it('a folder on the path that is a dangling link (ENOENT from mkdir) is not_found and names the folder', async () => {
    const dir = tmpDir();
    fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'notes'));
    const seen = await clientSees(() => thrownBy(() => fs.mkdirSync(path.join(dir, 'notes'), { recursive: true })));
    expect(seen.code).toBe('not_found');
    expect(seen.message).toBe(`cannot create the folder ${path.join(dir, 'notes')}: it, or a folder on its path, does not exist (or is a link to a missing place) (ENOENT)`);
  });

  it('a missing file, a folder written as a file, a file listed as a folder, an existing name: each its code, in words', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'f.md');
    fs.writeFileSync(file, 'x');
    const cases: [() => unknown, ErrorCode, string][] = [
      [() => fs.openSync(path.join(dir, 'missing.md'), 'r'), 'not_found', `cannot open ${path.join(dir, 'missing.md')}: it, or a folder on its path, does not exist (or is a link to a missing place) (ENOENT)`],
      [() => writeFileAtomicSync(dir, 'x'), 'bad_request', `cannot write ${dir}: it is a folder, not a file (EISDIR)`],
      [() => fs.readdirSync(file), 'not_found', `cannot list the folder ${file}: it is a file, not a folder (ENOTDIR)`],
      [() => fs.mkdirSync(file), 'conflict', `cannot create the folder ${file}: it already exists (EEXIST)`],
      [() => fs.writeFileSync(path.join(file, 'x'), 'x'), 'not_found', `cannot open ${path.join(file, 'x')}: a part of its path is a file, not a folder (ENOTDIR)`],
    ];
    for (const [fn, code, message] of cases) expect(await clientSees(() => thrownBy(fn))).toMatchObject({ code, message });
  });

  it.skipIf(!fs.existsSync('/dev/full'))('a full disk (ENOSPC) is unavailable and names the file being written', async () => {
    const seen = await clientSees(() => thrownBy(() => appendFileDurableSync('/dev/full', 'a line\n')));
    expect(seen.code).toBe('unavailable');
    expect(seen.message).toBe('cannot write /dev/full: the disk is full (ENOSPC)');
  });

  // Root reads any file whatever its mode, so EACCES cannot be produced as root (CI runs as
  // root); the errno table below checks the code and the words of EACCES instead.
  it.skipIf(process.getuid?.() === 0)('a file the user may not open (EACCES) is forbidden', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'secret.md');
    fs.writeFileSync(file, 'x');
    fs.chmodSync(file, 0o000);
    const seen = await clientSees(() => thrownBy(() => fs.readFileSync(file)));
    expect(seen.code).toBe('forbidden');
    expect(seen.message).toBe(`cannot open ${file}: permission denied (EACCES)`);
  });

  it('each errno has its code and words, with the errno kept for searching', () => {
    // Node's own error shape (code, syscall, path), for the codes a test cannot cause for real here.
    const sys = (code: string, syscall: string, p?: string): SystemError => Object.assign(new Error(`${code}: x, ${syscall} '${p}'`), { code, syscall, ...(p ? { path: p } : {}) });
    expect(describeSystemError(sys('EACCES', 'open', '/s/a.md'))).toEqual({ code: 'forbidden', message: 'cannot open /s/a.md: permission denied (EACCES)' });
    expect(describeSystemError(sys('EROFS', 'rename', '/s/a.md'))).toEqual({ code: 'read_only', message: 'cannot move /s/a.md: the file system is read-only (EROFS)' });
    expect(describeSystemError(sys('EDQUOT', 'write', '/s/a.md'))).toEqual({ code: 'unavailable', message: 'cannot write /s/a.md: the disk quota is used up (EDQUOT)' });
    expect(describeSystemError(sys('ENOENT', 'mkdir', '/w/notes'), 'notes').message).toBe('cannot create the folder notes: it, or a folder on its path, does not exist (or is a link to a missing place) (ENOENT)');
  });
});

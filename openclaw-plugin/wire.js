// @ts-check
/**
 * The wire between Cairn's plugin inside OpenClaw (bridge-client.js) and Cairn's bridge
 * (electron/engine/openclaw/bridge.ts), described once: its messages typed here in JSDoc
 * (the engine imports them as TypeScript types), the checks each end runs on what it reads
 * (`checkRequest` on Cairn's side, `checkAnswer` on the plugin's), and the line framing both
 * ends use.
 *
 * Framing: one JSON value per line, lines end at '\n' and nowhere else. Not readline: on the
 * Node OpenClaw runs (24), readline also ends a line at U+2028 and U+2029, which
 * `JSON.stringify` leaves as they are — a memory note holding one split its answer in two.
 * So the writer escapes them (`encodeLine`) and the reader splits on '\n' only
 * (`LineSplitter`): either fix alone keeps a line whole, both keep an older or newer other
 * end working. Lone surrogates and NUL are escaped by `JSON.stringify` itself.
 *
 * Plain JavaScript with no dependency: it is loaded by OpenClaw's Node from the plugin folder.
 */

/**
 * @typedef {object} HelloRequest `hello`: who answers, at once (the warm-up runs after it)
 * @property {'hello'} op
 * @property {string} [warm] the agent whose index Cairn warms up in the background
 */
/**
 * @typedef {object} CancelRequest `cancel`: stop request `target` (the plugin's budget ran out)
 * @property {'cancel'} op
 * @property {number} target
 */
/**
 * @typedef {object} RecallWireRequest `recall`: the section for a prompt, logged
 * @property {'recall'} op
 * @property {string} [agentId]
 * @property {string} sessionId
 * @property {string} [sessionKey]
 * @property {string} message the user's message
 * @property {string[]} [recent] the last turns' texts, oldest first
 * @property {string} [inContext] text already in front of the model
 * @property {string} [skip] why this turn gets no recall (logged as `skipped`)
 * @property {number} [budgetMs]
 * @property {number} [maxTokens]
 * @property {number} [minScore]
 * @property {number} [maxHits]
 */
/**
 * @typedef {object} SearchRequest `search`: Cairn's corpus behind memory_search corpus=all
 * @property {'search'} op
 * @property {string} query
 * @property {number} [maxResults]
 * @property {string} [agentId]
 */
/**
 * @typedef {object} GetRequest `get`: Cairn's corpus behind memory_get
 * @property {'get'} op
 * @property {string} lookup
 * @property {number} [fromLine]
 * @property {number} [lineCount]
 * @property {string} [agentId]
 */
/**
 * @typedef {object} CompactionWireRecord what the plugin saw of one compaction
 * @property {string} [ts]
 * @property {string} [agentId]
 * @property {string} sessionId
 * @property {string} [sessionKey]
 * @property {number | null} [tokensBefore]
 * @property {number | null} [tokensAfter]
 * @property {boolean} [flushRan]
 * @property {string} [flushAt]
 */
/**
 * @typedef {object} CompactionRequest `compaction`: append a compaction record
 * @property {'compaction'} op
 * @property {CompactionWireRecord} record
 */
/**
 * @typedef {object} ReadRequest `read`: one read-only contract call for the Cairn tab in OpenClaw's Control UI
 * @property {'read'} op
 * @property {string} channel a channel of shared/tab-door.ts (others are refused by the bridge)
 * @property {Record<string, unknown>} [request] the channel's request
 */
/** @typedef {HelloRequest | CancelRequest | RecallWireRequest | SearchRequest | GetRequest | CompactionRequest | ReadRequest} BridgeRequest */
/** @typedef {BridgeRequest['op']} BridgeOp */
/** @typedef {Exclude<BridgeRequest, CancelRequest>} AnsweredRequest a request that gets an answer */

/**
 * @typedef {object} HelloResult
 * @property {string} version
 * @property {string} stateDir
 * @property {number} pid
 */
/**
 * @typedef {object} RecallResult
 * @property {string} context the section to prepend ('' when nothing)
 * @property {string} outcome
 * @property {string} [reason]
 * @property {number} tookMs
 * @property {number} hits
 */
/**
 * @typedef {object} CorpusHit one hit, the shape of OpenClaw's `MemoryCorpusSearchResult`
 * @property {string} corpus
 * @property {string} path
 * @property {number} score
 * @property {string} snippet
 * @property {number} startLine
 * @property {number} endLine
 * @property {string} citation
 * @property {string} source
 * @property {string} kind
 * @property {string} provenanceLabel
 */
/**
 * @typedef {object} GetResult
 * @property {string} corpus
 * @property {string} path
 * @property {string} content
 * @property {number} fromLine
 * @property {number} lineCount
 * @property {string} provenanceLabel
 */
/**
 * @typedef {object} CompactionResult
 * @property {string} file
 */
/**
 * What each op answers.
 * @typedef {{ hello: HelloResult, recall: RecallResult, search: CorpusHit[], get: GetResult | null, compaction: CompactionResult, read: { ok: boolean } }} BridgeResults
 */
/**
 * One answer line: `{ id, ok: true, result }` or `{ id, ok: false, error }`; `id` null for a
 * line the bridge could not read.
 * @typedef {{ id: number | null, ok: true, result: unknown } | { id: number | null, ok: false, error: string }} BridgeAnswer
 */

/** @typedef {'string' | 'number' | 'boolean' | 'object' | 'strings' | 'nullableNumber'} Kind */
/** @typedef {Record<string, `${Kind}${'' | '?'}`>} Shape field → kind ('?': may be absent or null) */

/** @type {(v: unknown) => v is Record<string, unknown>} */
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @type {Record<Kind, (v: unknown) => boolean>} */
const KINDS = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: isRecord,
  strings: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
  nullableNumber: (v) => v === null || (typeof v === 'number' && Number.isFinite(v)),
};

/** @type {Record<BridgeOp, Shape>} */
const REQUESTS = {
  hello: { warm: 'string?' },
  cancel: { target: 'number' },
  recall: {
    agentId: 'string?', sessionId: 'string', sessionKey: 'string?', message: 'string', recent: 'strings?', inContext: 'string?',
    skip: 'string?', budgetMs: 'number?', maxTokens: 'number?', minScore: 'number?', maxHits: 'number?',
  },
  search: { query: 'string', maxResults: 'number?', agentId: 'string?' },
  get: { lookup: 'string', fromLine: 'number?', lineCount: 'number?', agentId: 'string?' },
  compaction: { record: 'object' },
  read: { channel: 'string', request: 'object?' },
};
/** @type {Shape} */
const RECORD = {
  ts: 'string?', agentId: 'string?', sessionId: 'string', sessionKey: 'string?', tokensBefore: 'nullableNumber?', tokensAfter: 'nullableNumber?', flushRan: 'boolean?', flushAt: 'string?',
};
/** @type {Shape} */
const CORPUS_HIT = {
  corpus: 'string', path: 'string', score: 'number', snippet: 'string', startLine: 'number', endLine: 'number', citation: 'string', source: 'string', kind: 'string', provenanceLabel: 'string',
};
/** @type {Record<Exclude<BridgeOp, 'cancel'>, Shape>} */
const RESULTS = {
  hello: { version: 'string', stateDir: 'string', pid: 'number' },
  recall: { context: 'string', outcome: 'string', reason: 'string?', tookMs: 'number', hits: 'number' },
  search: CORPUS_HIT,
  get: { corpus: 'string', path: 'string', content: 'string', fromLine: 'number', lineCount: 'number', provenanceLabel: 'string' },
  compaction: { file: 'string' },
  // The dispatcher's Result ({ ok: true, value } or { ok: false, error }), passed to the tab as it is.
  read: { ok: 'boolean' },
};

/**
 * The first field of `value` that does not fit `shape`, as a message ('' when all fit).
 * Fields not in the shape are left alone (a newer other end may add some).
 * @param {Shape} shape
 * @param {Record<string, unknown>} value
 * @param {string} where
 */
function misfit(shape, value, where) {
  for (const [field, spec] of Object.entries(shape)) {
    const optional = spec.endsWith('?');
    const kind = /** @type {Kind} */ (optional ? spec.slice(0, -1) : spec);
    const v = value[field];
    if (optional && (v === undefined || v === null)) continue;
    if (!KINDS[kind](v)) return `${where}.${field} must be ${optional ? 'absent or ' : ''}${kind === 'strings' ? 'a list of strings' : kind === 'nullableNumber' ? 'a number or null' : `a ${kind}`}`;
  }
  return '';
}

/** Optional fields sent as null are read as absent. @param {Record<string, unknown>} v */
const dropNulls = (v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null));

/**
 * Check one request line's value (the bridge's side).
 * @param {unknown} value the parsed JSON
 * @returns {{ ok: true, id: number | null, request: BridgeRequest } | { ok: false, id: number | null, error: string }}
 */
export function checkRequest(value) {
  if (!isRecord(value)) return { ok: false, id: null, error: 'a request must be a JSON object' };
  const id = typeof value.id === 'number' && Number.isFinite(value.id) ? value.id : null;
  const op = value.op;
  if (typeof op !== 'string' || !Object.hasOwn(REQUESTS, op)) return { ok: false, id, error: `unknown op ${JSON.stringify(op)}` };
  const bad = misfit(REQUESTS[/** @type {BridgeOp} */ (op)], value, op) || (op === 'compaction' ? misfit(RECORD, /** @type {any} */ (value).record, 'compaction.record') : '');
  if (bad) return { ok: false, id, error: bad };
  const request = /** @type {BridgeRequest} */ (/** @type {unknown} */ (op === 'compaction' ? { ...value, record: dropNulls(/** @type {any} */ (value).record) } : dropNulls(value)));
  return { ok: true, id, request };
}

/**
 * Check one answer line's value (the plugin's side): its frame, and for an `ok` answer the
 * result `op` gives.
 * @param {unknown} value the parsed JSON
 * @param {(id: number) => BridgeOp | undefined} opOf the op of a pending request id
 * @returns {{ id: number | null, ok: true, result: unknown } | { id: number | null, ok: false, error: string }}
 */
export function checkAnswer(value, opOf) {
  if (!isRecord(value)) return { id: null, ok: false, error: 'an answer must be a JSON object' };
  const id = typeof value.id === 'number' ? value.id : null;
  if (value.ok === false) return { id, ok: false, error: typeof value.error === 'string' ? value.error : 'Cairn answered an error without a message' };
  if (value.ok !== true) return { id, ok: false, error: 'an answer must say ok: true or false' };
  const op = id === null ? undefined : opOf(id);
  if (op === undefined || op === 'cancel') return { id, ok: true, result: value.result };
  const shape = RESULTS[op];
  const result = value.result;
  if (op === 'get' && result === null) return { id, ok: true, result };
  const items = op === 'search' ? (Array.isArray(result) ? result : [undefined]) : [result];
  for (const [i, item] of items.entries()) {
    const where = op === 'search' ? `search result[${i}]` : `${op} result`;
    const bad = isRecord(item) ? misfit(shape, item, where) : `${where} must be an object`;
    if (bad) return { id, ok: false, error: `Cairn's answer does not fit the wire: ${bad}` };
  }
  return { id, ok: true, result };
}

const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * One message as a line: JSON with U+2028/U+2029 escaped, ended by '\n'.
 * @param {unknown} message
 */
export function encodeLine(message) {
  return `${JSON.stringify(message).replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))}\n`;
}

/**
 * Cuts a stream of decoded text into lines at '\n' only. Looks for the end of a line in each
 * new chunk only, so a 1 MB line arriving in 64 KiB chunks costs one pass, not one per chunk.
 */
export class LineSplitter {
  constructor() {
    /** @type {string[]} the unfinished line's pieces */
    this.parts = [];
  }

  /**
   * The lines `chunk` finishes (without their '\n'; a '\r' before it is kept, it is not ours).
   * @param {string} chunk
   * @returns {string[]}
   */
  push(chunk) {
    /** @type {string[]} */
    const lines = [];
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', from)) {
      this.parts.push(chunk.slice(from, nl));
      lines.push(this.parts.join(''));
      this.parts = [];
      from = nl + 1;
    }
    if (from < chunk.length) this.parts.push(chunk.slice(from));
    return lines;
  }

  /** What is left when the input ends (an unfinished last line), or null. */
  end() {
    const rest = this.parts.join('');
    this.parts = [];
    return rest ? rest : null;
  }
}

/**
 * The lines of a readable stream (decoded as UTF-8), ended at '\n' only.
 * @param {NodeJS.ReadableStream} stream
 * @returns {AsyncGenerator<string>}
 */
export async function* readLines(stream) {
  stream.setEncoding('utf8');
  const splitter = new LineSplitter();
  for await (const chunk of stream) yield* splitter.push(String(chunk));
  const rest = splitter.end();
  if (rest !== null) yield rest;
}

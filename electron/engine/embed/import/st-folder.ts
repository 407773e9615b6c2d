/**
 * Reads a sentence-transformers model folder (what `SentenceTransformer.save()` writes, or a
 * Hugging Face snapshot of one): modules.json (which sub-folders hold the Transformer, the
 * Pooling and whether a Normalize step follows), config.json (the BERT shape), the weights
 * (model.safetensors; a pickled pytorch_model.bin is refused), the WordPiece vocabulary (vocab.txt, else tokenizer.json), the
 * Pooling config, max_seq_length and any query/document prompts. Everything a GGUF needs,
 * checked up front with errors that name the file and the field.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Sentence-transformers pooling modes that llama.cpp can run (its pooling_type values). */
export type PoolingMode = 'mean' | 'cls' | 'last';

/** What the converter needs to know about a sentence-transformers model. */
export interface SentenceTransformerModel {
  /** The folder holding config.json and the weights. */
  dir: string;
  name: string;
  weights: string;
  config: {
    hiddenSize: number;
    layers: number;
    heads: number;
    intermediateSize: number;
    layerNormEps: number;
    maxPositions: number;
    typeVocabSize: number;
    vocabSize: number;
  };
  /** WordPiece vocabulary in id order. */
  vocab: string[];
  /** Ids of tokens the tokenizer treats as special (never produced from text). */
  specialIds: Set<number>;
  ids: { cls: number; sep: number; pad: number; unk: number; mask: number };
  lowercase: boolean;
  pooling: PoolingMode;
  normalize: boolean;
  maxSeqLength?: number;
  prompts: { query?: string; document?: string };
}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `not valid JSON (${(err as Error).message})`}`);
  }
}

function optJson(file: string): Record<string, unknown> | undefined {
  return fs.existsSync(file) ? readJson(file) : undefined;
}

function num(cfg: Record<string, unknown>, key: string, file: string, fallback?: number): number {
  const v = cfg[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${file}: "${key}" must be a number (got ${JSON.stringify(cfg[key])})`);
  return v;
}

const GENERIC_NAMES = /^(model|0_transformer|transformer|snapshot|main|[0-9a-f]{40})$/i;

/** A human name for the model: the model card's title, else the folder's name. */
function modelName(root: string): string {
  const readme = path.join(root, 'README.md');
  if (fs.existsSync(readme)) {
    const title = /^# ([\w.-]+)\s*$/m.exec(fs.readFileSync(readme, 'utf8'))?.[1];
    if (title) return title;
  }
  let dir = root;
  while (GENERIC_NAMES.test(path.basename(dir)) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.basename(dir);
}

function readVocab(dir: string): { vocab: string[]; added: { id: number; special: boolean }[]; lowercase?: boolean } {
  const tokJson = optJson(path.join(dir, 'tokenizer.json'));
  const added = Array.isArray(tokJson?.added_tokens) ? (tokJson.added_tokens as { id: number; special: boolean }[]) : [];
  const normalizer = tokJson?.normalizer as { lowercase?: boolean } | undefined;
  const vocabTxt = path.join(dir, 'vocab.txt');
  if (fs.existsSync(vocabTxt)) {
    const vocab = fs.readFileSync(vocabTxt, 'utf8').split('\n');
    if (vocab.at(-1) === '') vocab.pop();
    return { vocab: vocab.map((t) => t.replace(/\r$/, '')), added, lowercase: normalizer?.lowercase };
  }
  const model = tokJson?.model as { type?: string; vocab?: Record<string, number> } | undefined;
  if (!model) throw new Error(`${dir}: no vocab.txt and no tokenizer.json, so there is no WordPiece vocabulary to import`);
  if (model.type !== 'WordPiece' || !model.vocab) throw new Error(`${path.join(dir, 'tokenizer.json')}: tokenizer model is ${model.type ?? 'unknown'}; only WordPiece (BERT) vocabularies can be imported`);
  const vocab: string[] = [];
  for (const [tok, id] of Object.entries(model.vocab)) vocab[id] = tok;
  for (let i = 0; i < vocab.length; i++) if (vocab[i] === undefined) throw new Error(`${path.join(dir, 'tokenizer.json')}: vocabulary has no token with id ${i}`);
  return { vocab, added, lowercase: normalizer?.lowercase };
}

/**
 * Read and check a sentence-transformers folder (or the folder of a given model.safetensors
 * / config.json file). Throws an Error naming the file and the problem.
 */
export function readSentenceTransformer(input: string): SentenceTransformerModel {
  const abs = path.resolve(input);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) throw new Error(`${abs}: no such file or folder`);
  const root = st.isDirectory() ? abs : path.dirname(abs);
  const modules = optJson(path.join(root, 'modules.json')) as unknown as { type?: string; path?: string }[] | undefined;
  const mod = (kind: string) => (Array.isArray(modules) ? modules.find((m) => typeof m.type === 'string' && m.type.endsWith(`.${kind}`)) : undefined);
  const dir = path.join(root, mod('Transformer')?.path ?? '');

  const cfgFile = path.join(dir, 'config.json');
  const cfg = readJson(cfgFile);
  if (cfg.model_type !== 'bert') {
    throw new Error(`${cfgFile}: model_type is ${JSON.stringify(cfg.model_type)}; only BERT models (model_type "bert", e.g. all-MiniLM-L6-v2, bge-small-en-v1.5) can be imported`);
  }
  if (cfg.hidden_act !== undefined && cfg.hidden_act !== 'gelu') throw new Error(`${cfgFile}: hidden_act is ${JSON.stringify(cfg.hidden_act)}; llama.cpp's BERT runs gelu only`);
  if (cfg.position_embedding_type !== undefined && cfg.position_embedding_type !== 'absolute') {
    throw new Error(`${cfgFile}: position_embedding_type ${JSON.stringify(cfg.position_embedding_type)} is not supported (only "absolute")`);
  }

  // Safetensors only: a plain header and raw tensors. A pickled pytorch_model.bin needs an
  // unpickler (code that a hostile file aims at), and every sentence-transformers model on
  // Hugging Face has a model.safetensors beside it (the library saves it by default).
  const weights = path.join(dir, 'model.safetensors');
  if (!fs.existsSync(weights)) {
    const bin = path.join(dir, 'pytorch_model.bin');
    if (fs.existsSync(bin)) {
      throw new Error(
        `${bin}: PyTorch pickle weights are not imported; download the model's model.safetensors into ${dir} ` +
          '(Hugging Face lists it under "Files"), or convert: python -c "from sentence_transformers import SentenceTransformer as S; S(\'<folder>\').save(\'<folder>\')"',
      );
    }
    throw new Error(`${dir}: no model.safetensors, so there are no weights to import`);
  }

  const { vocab, added, lowercase } = readVocab(dir);
  const find = (tok: string): number => {
    const id = vocab.indexOf(tok);
    if (id < 0) throw new Error(`${dir}: the vocabulary has no ${tok} token, which BERT needs`);
    return id;
  };
  const tokCfg = optJson(path.join(dir, 'tokenizer_config.json')) ?? {};
  const tokName = (key: string, dflt: string): string => {
    const v = tokCfg[key];
    return typeof v === 'string' ? v : typeof (v as { content?: unknown })?.content === 'string' ? ((v as { content: string }).content) : dflt;
  };
  const ids = {
    cls: find(tokName('cls_token', '[CLS]')),
    sep: find(tokName('sep_token', '[SEP]')),
    pad: find(tokName('pad_token', '[PAD]')),
    unk: find(tokName('unk_token', '[UNK]')),
    mask: find(tokName('mask_token', '[MASK]')),
  };
  const specialIds = new Set<number>([...Object.values(ids), ...added.filter((a) => a.special).map((a) => a.id)]);

  const poolPath = mod('Pooling')?.path;
  const pool = poolPath ? readJson(path.join(root, poolPath, 'config.json')) : { pooling_mode_mean_tokens: true };
  const poolFile = poolPath ? path.join(root, poolPath, 'config.json') : 'modules.json';
  const modes = Object.entries(pool).filter(([k, v]) => k.startsWith('pooling_mode_') && v === true).map(([k]) => k);
  const map: Record<string, PoolingMode> = { pooling_mode_mean_tokens: 'mean', pooling_mode_cls_token: 'cls', pooling_mode_lasttoken: 'last' };
  if (modes.length !== 1 || !map[modes[0] as string]) {
    throw new Error(`${poolFile}: pooling ${modes.join(' + ') || 'none'} cannot run in llama.cpp; only exactly one of mean, CLS or last-token pooling`);
  }

  const bertCfg = optJson(path.join(root, 'sentence_bert_config.json'));
  const stCfg = optJson(path.join(root, 'config_sentence_transformers.json'));
  const prompts = (stCfg?.prompts ?? {}) as Record<string, unknown>;
  const prompt = (k: string): string | undefined => (typeof prompts[k] === 'string' && prompts[k] ? (prompts[k] as string) : undefined);

  const config = {
    hiddenSize: num(cfg, 'hidden_size', cfgFile),
    layers: num(cfg, 'num_hidden_layers', cfgFile),
    heads: num(cfg, 'num_attention_heads', cfgFile),
    intermediateSize: num(cfg, 'intermediate_size', cfgFile),
    layerNormEps: num(cfg, 'layer_norm_eps', cfgFile, 1e-12),
    maxPositions: num(cfg, 'max_position_embeddings', cfgFile),
    typeVocabSize: num(cfg, 'type_vocab_size', cfgFile, 2),
    vocabSize: num(cfg, 'vocab_size', cfgFile),
  };
  if (config.vocabSize !== vocab.length) throw new Error(`${cfgFile}: vocab_size ${config.vocabSize} but the vocabulary has ${vocab.length} tokens`);
  return {
    dir,
    name: modelName(root),
    weights,
    config,
    vocab,
    specialIds,
    ids,
    lowercase: lowercase ?? (tokCfg.do_lower_case !== false),
    pooling: map[modes[0] as string] as PoolingMode,
    normalize: Boolean(mod('Normalize')),
    maxSeqLength: typeof bertCfg?.max_seq_length === 'number' ? bertCfg.max_seq_length : undefined,
    prompts: { query: prompt('query'), document: prompt('document') ?? prompt('passage') },
  };
}

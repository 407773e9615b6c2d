/**
 * Sentence-transformers → GGUF: turns a BERT sentence-embedding model folder into a GGUF
 * file that node-llama-cpp (llama.cpp's `bert` architecture) runs for embeddings, without
 * Python. Mirrors what llama.cpp's convert_hf_to_gguf.py writes for BertModel: the same
 * tensor names, the WordPiece vocabulary in llama.cpp's "phantom space" form (word-start
 * tokens carry "▁", "##" continuations lose it), token types, special token ids, and the
 * pooling type from the sentence-transformers Pooling config. The layers' matrices are stored
 * Q8_0 (blocks of 32 int8 with an f16 scale, as llama-quantize writes them: on the LoCoMo
 * dev half all-MiniLM-L6-v2's recall is the F16 one's, 0.870, at ≈ 30% less CPU per text,
 * docs/benchmarks.md), the token embeddings F16, norms, biases and the small tables F32;
 * `f16` keeps every matrix F16 (convert_hf_to_gguf's default), `f32` F32.
 *
 * Extra `cairn.*` keys keep what llama.cpp has no key for: whether sentence-transformers
 * L2-normalises (Cairn always does), max_seq_length, and the query/document prompts.
 */
import path from 'node:path';
import { arr, bool, f32, GGUF_TYPE, str, u32, writeGgufFile, type GgufValue, type LazyGgufTensor } from './gguf-writer';
import { SafetensorsFile } from './safetensors';
import { readSentenceTransformer, type SentenceTransformerModel } from './st-folder';

/** What `importSentenceTransformers` did. */
export interface ImportResult {
  outFile: string;
  name: string;
  bytes: number;
  dims: number;
  layers: number;
  vocab: number;
  pooling: SentenceTransformerModel['pooling'];
  normalize: boolean;
  prompts: SentenceTransformerModel['prompts'];
  warnings: string[];
}

export interface ImportOptions {
  /** Output .gguf path; default `<outDir>/<name>.gguf`. */
  outFile?: string;
  outDir?: string;
  /** Model name (general.name, default file name); default the model card's title or the folder's name. */
  name?: string;
  /** Store matrices as F32 (bit-exact weights, ≈ 3× the size of the default). */
  f32?: boolean;
  /** Store the layers' matrices as F16 instead of Q8_0 (a larger file, more CPU per text). */
  f16?: boolean;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

const POOLING_TYPE = { mean: 1, cls: 2, last: 3 } as const; // llama.cpp enum llama_pooling_type
const TOKEN_TYPE = { normal: 1, control: 3 } as const; // llama.cpp enum llama_token_type

/** llama.cpp's WPM vocabulary form (convert_hf_to_gguf BertModel.set_vocab's `phantom`). */
function phantom(tok: string): string {
  if (tok.startsWith('[') && tok.endsWith(']')) return tok;
  if (tok.startsWith('##')) return tok.slice(2);
  return `\u2581${tok}`;
}

/** HF BertModel tensor name → llama.cpp name; undefined for tensors llama.cpp does not use. */
export function ggufTensorName(hf: string): string | undefined {
  const n = hf.replace(/^(bert|model)\./, '').replace(/\.gamma$/, '.weight').replace(/\.beta$/, '.bias');
  const emb: Record<string, string> = {
    'embeddings.word_embeddings.weight': 'token_embd.weight',
    'embeddings.position_embeddings.weight': 'position_embd.weight',
    'embeddings.token_type_embeddings.weight': 'token_types.weight',
    'embeddings.LayerNorm.weight': 'token_embd_norm.weight',
    'embeddings.LayerNorm.bias': 'token_embd_norm.bias',
  };
  if (emb[n]) return emb[n];
  const m = /^encoder\.layer\.(\d+)\.(.+)\.(weight|bias)$/.exec(n);
  if (!m) return undefined;
  const part: Record<string, string> = {
    'attention.self.query': 'attn_q',
    'attention.self.key': 'attn_k',
    'attention.self.value': 'attn_v',
    'attention.output.dense': 'attn_output',
    'attention.output.LayerNorm': 'attn_output_norm',
    'intermediate.dense': 'ffn_up',
    'output.dense': 'ffn_down',
    'output.LayerNorm': 'layer_output_norm',
  };
  const p = part[m[2] as string];
  return p ? `blk.${m[1]}.${p}.${m[3]}` : undefined;
}

function metadata(model: SentenceTransformerModel, matrices: 'f32' | 'f16' | 'q8_0'): Record<string, GgufValue> {
  const c = model.config;
  const tokens = model.vocab.map(phantom);
  const meta: Record<string, GgufValue> = {
    'general.architecture': str('bert'),
    'general.name': str(model.name),
    'general.file_type': u32({ f32: 0, f16: 1, q8_0: 7 }[matrices]), // LLAMA_FTYPE_ALL_F32 / MOSTLY_F16 / MOSTLY_Q8_0
    'general.alignment': u32(32),
    'bert.context_length': u32(c.maxPositions),
    'bert.embedding_length': u32(c.hiddenSize),
    'bert.feed_forward_length': u32(c.intermediateSize),
    'bert.block_count': u32(c.layers),
    'bert.attention.head_count': u32(c.heads),
    'bert.attention.layer_norm_epsilon': f32(c.layerNormEps),
    'bert.attention.causal': bool(false),
    'bert.pooling_type': u32(POOLING_TYPE[model.pooling]),
    'tokenizer.ggml.model': str('bert'),
    'tokenizer.ggml.pre': str('default'),
    'tokenizer.ggml.tokens': arr(GGUF_TYPE.STRING, tokens),
    'tokenizer.ggml.token_type': arr(GGUF_TYPE.INT32, tokens.map((_, i) => (model.specialIds.has(i) || /^\[unused\d+\]$/.test(model.vocab[i] as string) ? TOKEN_TYPE.control : TOKEN_TYPE.normal))),
    'tokenizer.ggml.token_type_count': u32(c.typeVocabSize),
    'tokenizer.ggml.padding_token_id': u32(model.ids.pad),
    'tokenizer.ggml.unknown_token_id': u32(model.ids.unk),
    'tokenizer.ggml.bos_token_id': u32(model.ids.cls),
    'tokenizer.ggml.cls_token_id': u32(model.ids.cls),
    'tokenizer.ggml.seperator_token_id': u32(model.ids.sep), // sic: llama.cpp's key
    'tokenizer.ggml.mask_token_id': u32(model.ids.mask),
    'tokenizer.ggml.add_bos_token': bool(true),
    'tokenizer.ggml.add_sep_token': bool(true),
    'cairn.normalize': bool(model.normalize),
  };
  if (model.maxSeqLength) meta['cairn.max_seq_length'] = u32(model.maxSeqLength);
  if (model.prompts.query) meta['cairn.prompt.query'] = str(model.prompts.query);
  if (model.prompts.document) meta['cairn.prompt.document'] = str(model.prompts.document);
  return meta;
}

/**
 * Convert a sentence-transformers BERT model (folder, or its model.safetensors) into a GGUF
 * embedding model. Throws an Error naming the file and field when the model cannot be
 * converted.
 */
export async function importSentenceTransformers(input: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const model = readSentenceTransformer(input);
  if (opts.name !== undefined) {
    if (!/^[\w.-]+$/.test(opts.name)) throw new Error(`model name ${JSON.stringify(opts.name)}: use letters, digits, ".", "-" and "_" only (it is also the file name)`);
    model.name = opts.name;
  }
  const warnings: string[] = [];
  if (!model.lowercase) warnings.push(`${model.name} has a cased vocabulary, but llama.cpp's WordPiece tokenizer lowercases text: expect lower quality`);
  if (opts.f32 && opts.f16) throw new Error('choose one of f32 and f16');
  const outFile = path.resolve(opts.outFile ?? path.join(opts.outDir ?? '.', `${model.name}${opts.f32 ? '-f32' : opts.f16 ? '-f16' : ''}.gguf`));
  const st = new SafetensorsFile(model.weights);
  try {
    const tensors: LazyGgufTensor[] = [];
    const seen = new Set<string>();
    for (const [hf, e] of st.tensors) {
      const name = ggufTensorName(hf);
      if (!name) continue;
      seen.add(name);
      const dims = [...e.shape].reverse(); // PyTorch row-major [out, in] is ggml [in, out]: same bytes
      const big = dims.length === 2 && /^(blk\.|token_embd\.weight)/.test(name);
      const q8 = !opts.f16 && name.startsWith('blk.') && (dims[0] ?? 0) % 32 === 0;
      tensors.push({ name, dims, type: !big || opts.f32 ? 'F32' : q8 ? 'Q8_0' : 'F16', load: () => st.readF32(hf) });
    }
    const need = ['token_embd.weight', 'position_embd.weight', 'token_types.weight', 'token_embd_norm.weight'];
    for (let i = 0; i < model.config.layers; i++) for (const p of ['attn_q', 'attn_k', 'attn_v', 'attn_output', 'attn_output_norm', 'ffn_up', 'ffn_down', 'layer_output_norm']) need.push(`blk.${i}.${p}.weight`);
    const missing = need.filter((n) => !seen.has(n));
    if (missing.length) throw new Error(`${model.weights}: missing BERT weights (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? `, … ${missing.length} in all` : ''}); is this a BertModel checkpoint?`);
    // llama.cpp looks tensors up by name; a fixed order (embeddings first, then by name) makes
    // the file the same whichever order the weights file lists them in (.bin vs safetensors).
    tensors.sort((a, b) => Number(a.name.startsWith('blk.')) - Number(b.name.startsWith('blk.')) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { bytes } = writeGgufFile(outFile, metadata(model, opts.f32 ? 'f32' : opts.f16 ? 'f16' : 'q8_0'), tensors, { onTensor: opts.onProgress, signal: opts.signal });
    return {
      outFile,
      name: model.name,
      bytes,
      dims: model.config.hiddenSize,
      layers: model.config.layers,
      vocab: model.vocab.length,
      pooling: model.pooling,
      normalize: model.normalize,
      prompts: model.prompts,
      warnings,
    };
  } finally {
    st.close();
  }
}

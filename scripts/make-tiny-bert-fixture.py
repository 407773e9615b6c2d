#!/usr/bin/env python3
"""The tiny random BERT of tests/fixtures/tiny-bert/ (1 layer, 8 dims, 16 tokens), saved by the
reference implementation as safetensors (tests/unit/embed-import.test.ts and
embed-model-fuzz.test.ts; the F16 variant is derived in the test). Run once in the scratch venv of
scripts/st-reference-embeddings.py:  /tmp/stvenv/bin/python scripts/make-tiny-bert-fixture.py
"""
import os

import torch  # noqa: F401 (transformers needs it)
from transformers import BertConfig, BertModel

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "tiny-bert")
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", "dog", "##s", "a", "rug", ".", "ran"]

torch.manual_seed(1)
cfg = BertConfig(vocab_size=len(VOCAB), hidden_size=8, num_hidden_layers=1, num_attention_heads=2, intermediate_size=16, max_position_embeddings=32)
model = BertModel(cfg)
out = os.path.join(OUT, "safetensors")
os.makedirs(out, exist_ok=True)
model.save_pretrained(out)  # config.json + model.safetensors
with open(os.path.join(out, "vocab.txt"), "w") as f:
    f.write("\n".join(VOCAB) + "\n")
print("wrote", OUT)

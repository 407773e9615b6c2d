#!/usr/bin/env python3
"""The tiny random BERT of tests/fixtures/tiny-bert/ (1 layer, 8 dims, 16 tokens), saved three
ways by the reference implementation: safetensors, a torch.save pytorch_model.bin (F32) and
one with F16 weights, so tests/unit/embed-import.test.ts can check that Cairn's .bin reader
yields exactly the safetensors weights. Run once in the scratch venv of
scripts/st-reference-embeddings.py:  /tmp/stvenv/bin/python scripts/make-tiny-bert-fixture.py
"""
import os

import torch
from transformers import BertConfig, BertModel

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "tiny-bert")
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", "dog", "##s", "a", "rug", ".", "ran"]

torch.manual_seed(1)
cfg = BertConfig(vocab_size=len(VOCAB), hidden_size=8, num_hidden_layers=1, num_attention_heads=2, intermediate_size=16, max_position_embeddings=32)
model = BertModel(cfg)
for name in ("safetensors", "bin", "bin-f16"):
    out = os.path.join(OUT, name)
    os.makedirs(out, exist_ok=True)
    model.save_pretrained(out)  # config.json + model.safetensors
    with open(os.path.join(out, "vocab.txt"), "w") as f:
        f.write("\n".join(VOCAB) + "\n")
    if name != "safetensors":
        os.remove(os.path.join(out, "model.safetensors"))
        state = model.state_dict() if name == "bin" else {k: v.half() for k, v in model.state_dict().items()}
        torch.save(state, os.path.join(out, "pytorch_model.bin"))
print("wrote", OUT)

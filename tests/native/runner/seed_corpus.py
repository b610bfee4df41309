"""seed_corpus.py - what the native fuzzers' make_seeds.py scripts share:
writing their seeds, one file a seed named by its key, into the corpus/
folder beside the script (created if missing), where the Makefile's
fuzz rules and tests/run take them from.
"""

import os


def write(fuzz_dir, seeds):
    """Write each of seeds (name -> bytes) to fuzz_dir/corpus/name."""
    corpus = os.path.join(fuzz_dir, "corpus")
    os.makedirs(corpus, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(corpus, name), "wb") as f:
            f.write(data)

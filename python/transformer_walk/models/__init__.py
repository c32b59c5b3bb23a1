"""The Transformers, each written once over a backend and recording a trace.

    toy.py          the toy encoder: every number fits on a screen
    minilm/         all-MiniLM-L6-v2, a BERT encoder (safetensors)
    smollm2/        SmolLM2-135M-Instruct, a Llama decoder (GGUF)

What the two real models share, defined once:

    errors.py       WeightsError, ConfigError and how an unreadable file is reported
    checks.py       the argument checks: is_int, check_text (str, no lone surrogate)
    record.py       Record: where a forward leaves its intermediates for the trace
    heads.py        splitting into heads and merging them back (the toy model's too)
    files.py        the weight files' sha256, cached
    large_pages.py  arrays for the weights in one block advised for 2 MB pages
"""

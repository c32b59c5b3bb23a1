"""transformer-walk: from one-hot vectors to a full Transformer, one sentence at a time."""

__version__ = "0.1.0"

"""The words of the walkthrough pages, one module per page, each a ``MESSAGES`` dict of
``{message id: {"en": ..., "zh": ...}}`` merged into ``transformer_walk.app.i18n.MESSAGES``."""

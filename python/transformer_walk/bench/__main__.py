"""``python -m transformer_walk.bench``: see ``transformer_walk.bench.cli``."""

import sys

from transformer_walk.bench.cli import main

sys.exit(main())

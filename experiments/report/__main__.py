"""Entry point: python3 experiments/report ... or, from experiments/,
python3 -m report ... (usage: experiments/report/__init__.py)."""

import os
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the checkout
if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from report.cli import main
else:
    from .cli import main

sys.exit(main(sys.argv[1:]))

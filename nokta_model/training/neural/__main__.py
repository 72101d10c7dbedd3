"""``python -m nokta_model.neural --config CONFIG.json --run-dir runs/NAME``: train."""

from .cli import main

raise SystemExit(main())

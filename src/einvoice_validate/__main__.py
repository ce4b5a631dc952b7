"""``python -m einvoice_validate``: the CLI."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())

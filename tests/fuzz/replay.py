"""Replays a fuzz corpus through one validator (no fuzzer): for the campaign's coverage figures.

Usage: coverage run --source=einvoice_validate -m tests.fuzz.replay build/fuzz/corpus
       coverage report --include='*/parse.py,*/hardened.py,*/envelopes/*,*/locations.py'
(``make fuzz-coverage`` runs both.) Prints how many inputs ended in a report, in each error code, or crashed.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

from einvoice_validate import Validator
from einvoice_validate.errors import EInvoiceValidateError


def main(argv: list[str]) -> int:
    validator = Validator(rules_date="2026-08-30")
    outcomes: collections.Counter[str] = collections.Counter()
    for path in sorted(Path(argv[1]).iterdir()):
        try:
            validator.validate(path.read_bytes())
            outcomes["report"] += 1
        except EInvoiceValidateError as exc:
            outcomes[exc.code] += 1
        except Exception as exc:  # the campaign's invariant: never; counted so that a replay shows it
            outcomes[f"crash {type(exc).__name__}"] += 1
    for outcome, count in outcomes.most_common():
        print(f"{count:6} {outcome}")
    return 1 if any(o.startswith("crash") for o in outcomes) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

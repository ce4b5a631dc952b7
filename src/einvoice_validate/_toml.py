"""How the project writes a TOML value into the files it writes (the configuration ``config`` prints, the message
catalogue, the rule-pack manifests): tomli-w escapes the strings; arrays and inline tables stay on one line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["toml_value"]

Scalar = str | bool | int


def toml_value(value: Scalar | Sequence[Scalar] | Mapping[str, Scalar]) -> str:
    """``value`` as it stands after ``key = ``: a string in double quotes with every escape TOML needs (a tab, a
    newline, any control character), an array or inline table on one line (tomli-w writes arrays over several lines,
    which would change every file written so far; keys of an inline table are quoted)."""
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{toml_value(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    import tomli_w  # here: `config` and the CLI import this module, and tomli-w costs 4 ms to import

    return tomli_w.dumps({"v": value}).removeprefix("v = ").removesuffix("\n")

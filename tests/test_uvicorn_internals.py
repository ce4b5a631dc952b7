"""The private parts of uvicorn that ``server/protocol.py`` builds on (issue 46), so that a uvicorn release that
renames one fails here, by name, instead of silently dropping a connection limit. ``pyproject.toml`` pins uvicorn to
the minor release these were read from; on a new one, read ``httptools_impl.py`` again and move the pin. Goes with
``GuardedProtocol``: drop it when the server no longer subclasses uvicorn's protocol."""

from __future__ import annotations

import inspect
import re

from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

# GuardedProtocol overrides or calls these methods ...
METHODS = (
    "connection_made",
    "connection_lost",
    "data_received",
    "on_message_begin",
    "on_url",
    "on_header",
    "on_headers_complete",
    "on_message_complete",
    "send_400_response",
    "timeout_keep_alive_handler",
)
# ... and reads these attributes that uvicorn sets on self
ATTRIBUTES = {
    HttpToolsProtocol: (
        "connections",
        "loop",
        "transport",
        "timeout_keep_alive",
        "timeout_keep_alive_task",
        "parser",
        "headers",
        "flow",
        "cycle",
        "client",
        "url",
    ),
    RequestResponseCycle: ("response_started",),
    FlowControl: ("read_paused",),
}


def test_the_private_names_protocol_py_uses_are_there() -> None:
    missing = [f"HttpToolsProtocol.{m}()" for m in METHODS if not callable(getattr(HttpToolsProtocol, m, None))]
    for cls, names in ATTRIBUTES.items():
        source = inspect.getsource(cls)
        missing += [f"{cls.__name__}.{a}" for a in names if not re.search(rf"self\.{a}\b(: [^=]+)? = ", source)]
    assert not missing, f"uvicorn no longer has what server/protocol.py uses: {', '.join(missing)}"

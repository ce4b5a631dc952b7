"""The validation service: an ASGI application (:func:`create_app`, to serve with ``einvoice-validate serve`` or
to mount in your own ASGI server), its settings in one place (:class:`ServerSettings`) and access keys.

Needs the ``server`` extra (``pip install 'einvoice-validate[server]'``: Starlette and uvicorn)."""

from __future__ import annotations

from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":  # Starlette is imported only when the application is wanted
        from .app import create_app

        return create_app
    raise AttributeError(name)

"""Benchmarks share the test fixtures (rules home, corpus location)."""

from tests.conftest import registry, shared, validator

__all__ = ["registry", "shared", "validator"]

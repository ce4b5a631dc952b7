"""The options every validator and runner shares, in one frozen object checked once: :class:`Options`.

``Validator``, ``BatchValidator`` / ``iter_validate`` / ``validate_many``, ``Pool``, the server's settings and the
Spark functions all carry one :class:`Options`; their keyword arguments (``Validator(profile=..., engine=...)``)
build it. It is checked when it is made, once: a bad value raises
:class:`~einvoice_validate.errors.ProfileError` with the API's code ``request.invalid-parameter`` and a ``reason``
(``profile-unknown``, ``rules-date``, else ``option``), never a ``TypeError`` deep inside a run. It pickles (it is
what worker processes and Spark executors receive) and is hashable.

Adding an option: one field in :class:`Options` (its type annotation is its check: a ``Literal`` of the values,
``bool``, ``int``, ...; the runners pass it on untouched) and its keyword, with the same type, in
:class:`OptionArgs` (``tests/test_options.py`` checks that the two agree).
"""

from __future__ import annotations

import os
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidatorFunctionWrapHandler, model_validator

from .errors import Detail, ProfileError
from .findings import Severity
from .limits import DEFAULT_LIMITS, Limits
from .profiles import all_profiles, find_profile, parse_rules_date
from .rulesets.registry import default_home
from .schematron.engines import EngineName

__all__ = [
    "DEFAULT_DOCUMENT_TIMEOUT",
    "EngineName",
    "Mode",
    "NotInstalledSeverity",
    "OptionArgs",
    "Options",
    "build_options",
    "rules_date_of",
]

Mode = Literal["threads", "processes"]
"""How a runner runs many documents at once: threads over one shared validator, or worker processes."""
NotInstalledSeverity = Literal[Severity.WARNING, Severity.ERROR]
"""The severities a ``rules.version-not-installed`` or ``profile.near-miss`` finding may have (the text ``WARNING``
/ ``ERROR`` too)."""
DEFAULT_DOCUMENT_TIMEOUT = 120.0

_REASONS = {"profile": "profile-unknown", "rules_date": "rules-date"}  # every other option: reason "option"


class Options(BaseModel):
    """What a validator runs with, and what the runners around it share.

    Attributes:
        profile: force this profile for every document (default: match each document, as KoSIT does); checked
            against the official profiles and the rules home's user profiles.
        rules_home: where the packs are installed (default: ``$EINVOICE_VALIDATE_HOME``, else
            :func:`~einvoice_validate.rulesets.default_home`); a ``str`` or path-like is taken as a path.
        limits: document size and depth limits (:class:`~einvoice_validate.Limits`; every limit at least 1).
        xsd_gate: skip Schematron when XSD found errors (the KoSIT validator's behaviour). Off by default: the
            API promises every finding at once.
        engine: the XSLT engine, ``saxonc`` or ``saxon-java``; None: ``$EINVOICE_VALIDATE_ENGINE``, else chosen
            by the work (one document: ``saxonc``, the fastest start; a server or a long batch: ``saxon-java``
            when its jar and JPype are installed; see :func:`~einvoice_validate.schematron.engines.engine_for`).
        rules_date: the day whose pack versions run where a profile lists several (default: the day of each
            validation); a ``date`` or ISO text ``YYYY-MM-DD``.
        document_timeout: seconds a runner (batch, pool, server) lets one document take before it answers
            ``server.error`` (reason ``timeout``) and stops the work (see :mod:`einvoice_validate.pool`); a
            single ``Validator.validate`` call has no timeout.
        mode: how a runner validates many documents at once: ``threads`` over one shared validator in this
            process, or worker ``processes`` (one validator each); None: threads on ``saxon-java`` (one JVM, thread
            safe, releases the GIL), processes on ``saxonc`` (threads do not scale on it).
        version_not_installed: the severity of the ``rules.version-not-installed`` finding, which says that a
            version in force on the rules date is not installed and which one ran instead (see
            :meth:`~einvoice_validate.profiles.Profile.plan_on`): ``WARNING`` (default) or ``ERROR`` (strict
            callers: such a report is never valid); a :class:`~einvoice_validate.Severity` or its text.
        near_miss: the severity of the ``profile.near-miss`` finding, which says that the document's specification
            identifier names a known family (XRechnung, Peppol BIS, ...) in a version or form none of its profiles
            knows (:func:`~einvoice_validate.profiles.near_miss`): ``WARNING`` (default) or ``ERROR`` (strict
            callers: such a report is never valid). Either way, where the family gives a verdict the report is not
            accepted.
        parallel_packs: a large document (:data:`~einvoice_validate.validator.BESIDE_TAGS` tags or more) on
            ``saxon-java`` builds Saxon's tree beside the limit checks and the XSD stage, and shares its packs'
            runs (a skeleton pack in up to three parts of its patterns) between two threads, when the validator holds no
            other document: about a fifth less time at 2,000 lines on two cores, the same findings in the same
            order, the same CPU time or a little more (default on).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    profile: str | None = None
    rules_home: Path | None = None
    limits: Limits = DEFAULT_LIMITS
    xsd_gate: bool = False
    engine: EngineName | None = None
    rules_date: date | None = None
    document_timeout: float = Field(default=DEFAULT_DOCUMENT_TIMEOUT, gt=0, allow_inf_nan=False)
    mode: Mode | None = None
    version_not_installed: NotInstalledSeverity = Severity.WARNING
    near_miss: NotInstalledSeverity = Severity.WARNING
    parallel_packs: bool = True

    @model_validator(mode="wrap")
    @classmethod
    def _checked(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Options:
        if isinstance(data, dict):
            data = _lax(data)
        try:
            options: Options = handler(data)
        except ValidationError as exc:
            raise _invalid(exc) from None
        if options.profile is not None:
            find_profile(options.profile, all_profiles(options.home()))  # reason profile-unknown
        return options

    def home(self) -> Path:
        """The rules home: ``rules_home``, else the default (read from the environment now)."""
        if self.rules_home is not None:
            return self.rules_home
        return default_home()

    def replace(self, **changes: Any) -> Options:
        """A copy with ``changes`` (checked like the original)."""
        return Options.model_validate({**dict(self), **changes})


class OptionArgs(TypedDict, total=False):
    """The keyword arguments that build an :class:`Options` (``Validator(**args)``, ``iter_validate(...,
    **args)``, ...): one per field, with the forms accepted before the check (text for dates and paths)."""

    profile: str | None
    rules_home: str | os.PathLike[str] | None
    limits: Limits
    xsd_gate: bool
    engine: EngineName | None
    rules_date: date | str | None
    document_timeout: float
    mode: Mode | None
    version_not_installed: Severity
    near_miss: Severity
    parallel_packs: bool


def build_options(options: Options | None = None, args: OptionArgs | None = None) -> Options:
    """``options`` (default: all defaults) with the keyword arguments ``args`` applied, checked once."""
    if not args:
        return options if options is not None else Options()
    if options is None:
        return Options.model_validate(args)
    return options.replace(**args)


def rules_date_of(value: object) -> date | None:
    """A rules date given by a caller: a ``date`` (not a ``datetime``), ISO text ``YYYY-MM-DD`` or None; anything
    else is ``request.invalid-parameter`` (reason ``rules-date``)."""
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, str):
        return parse_rules_date(value)
    raise ProfileError(
        "request.invalid-parameter",
        Detail("detail.rules-date-type", type(value).__name__, repr(value)),
        reason="rules-date",
    )


def _lax(data: dict[str, Any]) -> dict[str, Any]:
    """The forms accepted before the strict check: text dates, text and path-like rules homes."""
    data = dict(data)
    if "rules_date" in data:
        data["rules_date"] = rules_date_of(data["rules_date"])
    home = data.get("rules_home")
    if isinstance(home, str | os.PathLike) and not isinstance(home, Path):
        data["rules_home"] = Path(home)
    limits = data.get("limits")
    if isinstance(limits, Limits):
        bad = [f"{k}={v!r}" for k, v in _fields(limits).items() if not (type(v) is int and v >= 1)]
        if bad:
            raise ProfileError(
                "request.invalid-parameter",
                Detail("detail.option-limits", ", ".join(bad)),
                reason="option",
            )
    return data


def _fields(limits: Limits) -> dict[str, object]:
    return {name: getattr(limits, name) for name in limits.__dataclass_fields__}


def _invalid(exc: ValidationError) -> ProfileError:
    """The first problem of a failed check as ``request.invalid-parameter``."""
    error = exc.errors()[0]
    name = str(error["loc"][0]) if error["loc"] else "options"
    if error["type"] == "extra_forbidden":
        known = ", ".join(Options.model_fields)
        return ProfileError(
            "request.invalid-parameter", Detail("detail.unknown-option", repr(name), known), reason="option"
        )
    said = f"{error['msg'][:1].lower()}{error['msg'][1:]}"
    detail = Detail("detail.option-invalid", name, said, repr(error.get("input")))
    return ProfileError("request.invalid-parameter", detail, reason=_REASONS.get(name, "option"))

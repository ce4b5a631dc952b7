"""A missing extra (or PDF input without pikepdf) is one line on stderr naming what to install, and exit status 2,
for every front end: tested in a virtual environment that has the core package without them.

The environment (made once per module, about 5 s from pip's cache) has lxml, saxonche and pydantic at the versions
this interpreter has, and the package's source through a ``.pth`` file (as an editable install would): no JPype,
no PySpark, pyarrow or pandas, no Starlette or uvicorn, no pikepdf.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from einvoice_validate._extras import DEPENDENCIES, EXTRAS, SETUP_CODE, MissingExtra, SetupError, require
from einvoice_validate.rulesets import Registry

REPO = Path(__file__).resolve().parents[1]
BROKEN = REPO / "examples" / "xrechnung-ubl-broken.xml"
CORE = ("lxml", "saxonche", "pydantic", "typing_extensions", "tomli-w")  # always imported: every dependency but pikepdf
DISTRIBUTIONS = {"jpype": "JPype1"}  # module → distribution where the names differ


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]


def test_the_table_of_extras_is_pyproject_s() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = {name: {_requirement_name(r) for r in reqs} for name, reqs in project["optional-dependencies"].items()}
    assert set(EXTRAS) == set(extras) - {"dev", "docs", "dist"}  # the toolchain's extras: no feature requires them
    for extra, modules in EXTRAS.items():
        assert {DISTRIBUTIONS.get(m, m) for m in modules} <= extras[extra], extra
    assert set(DEPENDENCIES.values()) <= set(project["dependencies"])
    assert {_requirement_name(r) for r in project["dependencies"]} == {*CORE, *DEPENDENCIES}


def test_require_names_the_command_and_is_an_import_error() -> None:
    with pytest.raises(MissingExtra) as info:
        EXTRAS["test-only"] = ("einvoice_validate_no_such_module",)
        try:
            require("test-only", "a feature")
        finally:
            del EXTRAS["test-only"]
    assert isinstance(info.value, ImportError) and isinstance(info.value, SetupError)
    assert str(info.value) == (
        "a feature needs the [test-only] extra (einvoice_validate_no_such_module is not installed): "
        "pip install 'einvoice-validate[test-only]'"
    )
    require("spark", "einvoice_validate.spark")  # installed here: nothing raised


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with the core package and none of its extras (nor pikepdf)."""
    venv = tmp_path_factory.mktemp("no-extras") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    pins = [f"{name}=={importlib.metadata.version(name)}" for name in CORE]
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", *pins],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(purelib, "einvoice_validate_src.pth").write_text(str(REPO / "src"))
    return python


def _run(python: Path, args: Sequence[str], registry: Registry, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "EINVOICE_VALIDATE_ENGINE"}
    environment.update(EINVOICE_VALIDATE_HOME=str(registry.home), **env)
    return subprocess.run(
        [str(python), *args], capture_output=True, text=True, env=environment, cwd=REPO, timeout=120, check=False
    )


JAVA = "needs the [java] extra (jpype is not installed): pip install 'einvoice-validate[java]'"
SPARK = (
    "einvoice_validate.spark needs the [spark] extra (pyspark, pyarrow, pandas are not installed): "
    "pip install 'einvoice-validate[spark]'"
)
SERVE = "serve needs the [server] extra (starlette, uvicorn are not installed): pip install 'einvoice-validate[server]'"
PDF = (
    "PDF input needs pikepdf, a dependency of einvoice-validate that is not installed here: "
    "pip install 'pikepdf>=9,<11'"
)
CLI = ("-m", "einvoice_validate")
CASES = {
    "cli --engine saxon-java": (
        (*CLI, "validate", "--engine", "saxon-java", str(BROKEN)),
        {},
        f"--engine saxon-java {JAVA}",
    ),
    "cli, engine from the environment": (
        (*CLI, "validate", str(BROKEN)),
        {"EINVOICE_VALIDATE_ENGINE": "saxon-java"},
        f"the saxon-java engine ($EINVOICE_VALIDATE_ENGINE) {JAVA}",
    ),
    "cli serve": ((*CLI, "serve", "--port", "1"), {}, SERVE),
    "import einvoice_validate.spark": (("-c", "import einvoice_validate.spark"), {}, SPARK),
    "a Spark job script": (("-c", "from einvoice_validate.spark import validate_files\nprint('never')"), {}, SPARK),
    "cli, a PDF": ((*CLI, "validate", "--workers", "2", str(BROKEN), "invoice.pdf"), {}, PDF),
    "library, PDF bytes": (("-c", "from einvoice_validate import validate\nvalidate(b'%PDF-1.7\\n%%EOF')"), {}, PDF),
}


@pytest.mark.parametrize("case", CASES)
def test_a_missing_extra_is_one_line_and_exit_2(case: str, bare_python: Path, registry: Registry) -> None:
    args, env, line = CASES[case]
    done = _run(bare_python, args, registry, **env)
    assert (done.returncode, done.stderr, done.stdout) == (2, f"einvoice-validate: {line} ({SETUP_CODE})\n", "")


def test_the_core_still_validates_xml_there(bare_python: Path, registry: Registry) -> None:
    done = _run(bare_python, (*CLI, "validate", "--format", "jsonl", str(BROKEN)), registry)
    assert done.returncode == 1, done.stderr
    assert '"BR-DE-15"' in done.stdout


def test_a_caller_can_catch_it(bare_python: Path, registry: Registry) -> None:
    script = (
        "try:\n    import einvoice_validate.spark\n"
        "except ImportError as exc:\n    print(type(exc).__name__, exc.name, exc.command)\n"
    )
    done = _run(bare_python, ("-c", script), registry)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "MissingExtra pyspark pip install 'einvoice-validate[spark]'\n",
        "",
    )

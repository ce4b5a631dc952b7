"""``serve`` without the ``[server]`` extra: one line naming the ``pip install`` to run, exit 2, no traceback.

Run in a virtual environment of its own that has the package's runtime dependencies (linked from this one's
site-packages) but not the extra's Starlette and uvicorn."""

from __future__ import annotations

import os
import subprocess
import sysconfig
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXTRA = ("starlette", "uvicorn", "httptools", "uvloop")  # the [server] extra's packages


def test_serve_without_the_server_extra(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    target = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if not entry.name.lower().startswith(EXTRA) and not (target / entry.name).exists():
            (target / entry.name).symlink_to(entry)
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    probe = subprocess.run([python, "-c", "import uvicorn"], capture_output=True, env=env)
    assert probe.returncode != 0, "the extra is still importable"
    done = subprocess.run(
        [python, "-m", "einvoice_validate", "serve", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "pip install 'einvoice-validate[server]'" in lines[0] and "Traceback" not in done.stderr

"""The package as a user gets it: ``.ci/wheel`` builds the sdist and the wheel, installs the wheel in a fresh venv
outside the clone and runs ``pyramid demo``, a shipped scene by name and a game there (about a minute: slow; CI
runs the script itself)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_wheel_installs_and_runs_outside_the_clone(tmp_path: Path) -> None:
    bash = shutil.which("bash")
    assert bash, "the check is a bash script"
    done = subprocess.run([bash, str(ROOT / ".ci" / "wheel"), str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    import pyramid

    assert f"pyramid {pyramid.__version__}" in done.stdout.splitlines()
    assert "ran there" in done.stdout
    (wheel,) = (tmp_path / "dist").glob(f"pyramid-{pyramid.__version__}-py3-none-any.whl")
    assert (tmp_path / "elsewhere" / "runs" / "die_throw_seed0.json").is_file()
    # The clone was never on the path: the scene came from the wheel's own copy.
    assert not (tmp_path / "elsewhere" / "scenes").exists()
    for venv in ("venv", "tools"):  # some 600 MB that pytest would keep for three sessions
        shutil.rmtree(tmp_path / venv)

"""An experiment survives any death of its process: SIGTERM and SIGHUP stop it as Ctrl-C does; SIGKILL of
the main process, of one worker or of the whole group leaves no worker running and no lock held by the dead; the same
command then resumes to exactly the rows of an uninterrupted run, nothing lost, nothing doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pyramid.cli import app as cli

SEEDS = 20
ARGS = ["experiment", "--game", "10", "--fast", "--players", "random,random,random", "--seeds", str(SEEDS)]
ARGS += ["--workers", "2", "--quiet", "--no-plots"]
STARTED = 4  # rows written before the signal


def _rows(folder: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (folder / "rows.jsonl").read_text().splitlines()]
    return sorted(rows, key=lambda r: (r["point"], r["seed"]))


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The rows of the experiment run without a stop."""
    folder = tmp_path_factory.mktemp("whole") / "exp"
    assert cli.main([*ARGS, "--out", str(folder)]) == 0
    return _rows(folder)


def _started(out: Path) -> subprocess.Popen[str]:
    """The experiment in a process group of its own, once STARTED rows are written."""
    code = "import sys; from pyramid.cli.app import main; sys.exit(main(sys.argv[1:]))"
    process = subprocess.Popen(
        [sys.executable, "-c", code, *ARGS, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    rows = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not rows.exists() or len(rows.read_text().splitlines()) < STARTED):
        time.sleep(0.005)
    return process


def _group(pgid: int) -> list[int]:
    """The live processes of the group ``pgid`` (zombies, dead and waiting to be reaped, left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _workers(process: subprocess.Popen[str]) -> list[int]:
    return [pid for pid in _group(process.pid) if pid != process.pid]


def _none_left(pgid: int) -> bool:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and _group(pgid):
        time.sleep(0.05)
    return not _group(pgid)


def _resumed(out: Path, whole: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the same command again: the rows of the uninterrupted run, each once. Returns what it said."""
    kept = len((out / "rows.jsonl").read_text().splitlines())
    assert STARTED <= kept < SEEDS, kept  # stopped in the middle
    capsys.readouterr()
    assert cli.main([*ARGS, "--out", str(out)]) == 0
    said = capsys.readouterr().err
    assert f"resumed: {kept} runs already done, {SEEDS - kept} runs this time" in said
    assert _rows(out) == whole
    assert not (out / "lock").exists()
    return said


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_an_experiment_as_ctrl_c_does(
    stop: signal.Signals, tmp_path: Path, whole: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    process = _started(out)
    assert len(_workers(process)) == 2
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + stop, err
    assert any(line.startswith(f"interrupted ({stop.name}): ") for line in err.splitlines()), err
    assert "rows kept in" in err and "run the same command again to resume" in err and "Traceback" not in err
    assert _none_left(process.pid), "a worker outlived the experiment"
    assert not (out / "lock").exists() and not (out / "summary.json").exists()
    _resumed(out, whole, capsys)


def test_sigkill_of_the_main_process_ends_its_workers_and_its_lock_is_taken_over(
    tmp_path: Path, whole: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    process = _started(out)
    process.kill()  # as the kernel's OOM killer does
    process.communicate(timeout=60)
    assert _none_left(process.pid), "a worker outlived the experiment"
    holder = json.loads((out / "lock").read_text())
    assert holder["pid"] == process.pid  # left behind by the dead
    said = _resumed(out, whole, capsys)
    assert f"{out}: pid {process.pid} on {holder['host']}, since " in said
    assert "ended without letting go of it; the lock is taken over" in said


def test_sigkill_of_one_worker_stops_the_experiment_and_it_resumes(
    tmp_path: Path, whole: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    process = _started(out)
    os.kill(_workers(process)[0], signal.SIGKILL)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    said = "a worker process ended without handing back its run (killed, or out of memory): "
    assert any(line.startswith(said) for line in err.splitlines()) and "Traceback" not in err, err
    assert _none_left(process.pid) and not (out / "lock").exists()
    _resumed(out, whole, capsys)


def test_sigkill_of_the_whole_group_loses_and_doubles_nothing(
    tmp_path: Path, whole: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    process = _started(out)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    assert _none_left(process.pid)
    said = _resumed(out, whole, capsys)
    assert "the lock is taken over" in said


def test_a_lock_still_held_for_a_dead_holder_on_this_host_is_taken_over(tmp_path: Path) -> None:
    """A process that inherited the lock of an experiment now dead (a worker of an older version) keeps the file's
    lock: the file is replaced, with a line, and the experiment runs."""
    from pyramid.lab.experiment_folder import LOCK, FolderLock

    folder = tmp_path / "exp"
    folder.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time\nf = open(sys.argv[1], 'w')\nfcntl.flock(f, fcntl.LOCK_EX)\n"
            "f.write(sys.argv[2]); f.flush(); print('held', flush=True); time.sleep(60)",
            str(folder / LOCK),
            json.dumps({"pid": dead.pid, "host": os.uname().nodename, "started": "then"}),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        said: list[str] = []
        with FolderLock(folder, said.append):
            assert json.loads((folder / LOCK).read_text())["pid"] == os.getpid()
        assert said == [
            f"{folder}: pid {dead.pid} on {os.uname().nodename}, since then ended without letting go of "
            "it; the lock is taken over"
        ]
    finally:
        holder.kill()
        holder.wait()


def _die() -> None:
    os._exit(9)


def _row(n: int) -> dict[str, Any]:
    return {"n": n}


def test_a_pool_broken_between_the_wait_and_the_next_job_stops_with_worker_lost() -> None:
    """The death of a worker can break the pool after ``wait`` handed back a finished run and before the next job
    is handed out: that job's submit then stops the experiment with the same one line, not a BrokenProcessPool
    traceback."""
    from concurrent.futures import ProcessPoolExecutor, wait

    from pyramid.lab.workers import WorkerLost, _submit

    with ProcessPoolExecutor(max_workers=1) as pool:
        wait([pool.submit(_die)])
        with pytest.raises(WorkerLost, match="^a worker process ended without handing back its run"):
            _submit(pool, _row, -1)


def test_a_stop_signal_while_the_pool_runs_is_acted_on_where_the_loop_chooses() -> None:
    """SIGTERM raised KeyboardInterrupt wherever the main process stood, once inside the pool's own code holding
    its lock, and ending the workers then waited forever. While the pool runs a signal is only noted; the loop
    acts on it between waits, as the handler before would have."""
    from pyramid.lab.workers import _signals_deferred, stop_signals

    outside = signal.getsignal(signal.SIGTERM)
    with stop_signals() as caught:
        with _signals_deferred() as act:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # delivered by now; noted only
            assert caught == []
            with pytest.raises(KeyboardInterrupt):
                act()
            assert caught == [signal.SIGTERM]
            act()  # acted on once
        assert signal.getsignal(signal.SIGTERM) not in (outside, signal.SIG_DFL)  # stop_signals' handler is back
    assert signal.getsignal(signal.SIGTERM) == outside

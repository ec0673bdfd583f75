"""The processes that run an experiment's jobs: local worker processes or a Dask cluster.

Under ``experiments``: a worker ends with the experiment, whatever ends it (Ctrl-C, SIGTERM, SIGHUP, a kill),
and never holds the experiment's folder; each run's row is handed to ``on_row`` as it comes back.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from pyramid.lab.experiment_folder import ExperimentError, close_inherited_locks

J = TypeVar("J")  # a job: plain data a worker rebuilds its run from
Row = dict[str, Any]


class WorkerLost(RuntimeError):
    """A worker process ended without handing back its run (killed, or out of memory); the rows written are kept."""


PR_SET_PDEATHSIG = 1  # Linux's prctl option: a signal for this process when its parent dies


def _start_worker(parent: int) -> None:
    """Set up a worker process of the experiment run by ``parent``: it ends with the experiment, whatever ends that;
    the parent handles Ctrl-C, SIGTERM and SIGHUP; PyBullet's banners do not reach the terminal."""
    close_inherited_locks()  # the folder's lock ends with the experiment's own process, not with the last worker
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # killed when the parent dies
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops handing out jobs, then ends the workers
    for stop in (signal.SIGTERM, signal.SIGHUP):  # the parent's handlers (see ``stop_signals``) are not a worker's
        signal.signal(stop, signal.SIG_DFL)
    _quiet_stdout()


def _quiet_stdout() -> None:
    """Send this worker process's file descriptor 1 to /dev/null: PyBullet's C code prints there for every world."""
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.close(quiet)


def run_local(jobs: Sequence[J], run: Callable[[J], Row], workers: int, on_row: Callable[[Row], None]) -> None:
    """``run`` each of ``jobs`` in ``workers`` processes of this machine (in this process when workers is 1).

    Interrupted (Ctrl-C, or a signal ``stop_signals`` turns into one), it keeps the rows already handed back and
    ends the workers at once; a worker that dies (killed, out of memory) stops the experiment with WorkerLost.
    """
    if workers <= 1:
        for job in jobs:
            on_row(run(job))
        return
    with _signals_deferred() as act_on_signals:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(os.getpid(),))
        pending: set[Future[Row]] = set()
        queue = iter(jobs)
        try:
            # Keep at most two jobs per worker in flight: an interruption then loses little.
            for job in itertools.islice(queue, 2 * workers):
                pending.add(_submit(pool, run, job))
            while pending:
                act_on_signals()
                finished, pending = wait(pending, timeout=SIGNAL_POLL, return_when=FIRST_COMPLETED)
                if _keep_done(finished, on_row):
                    raise WorkerLost(_LOST)
                for _ in finished:
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending.add(_submit(pool, run, nxt))
            act_on_signals()
        except BaseException:
            _keep_done({f for f in pending if f.done()}, on_row)  # rows handed back before the stop are kept
            _end_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


SIGNAL_POLL = 0.1  # seconds: how soon a stop signal noted while the pool runs is acted on


@contextlib.contextmanager
def _signals_deferred() -> Iterator[Callable[[], None]]:
    """While inside, Ctrl-C, SIGTERM and SIGHUP are only noted; the function yielded acts on the first one noted,
    as the handler in place before would have (KeyboardInterrupt), at a point the caller chooses.

    Raised at any point, KeyboardInterrupt can stop the pool's own code holding one of its locks, and ending
    the workers then waited forever (seen once, in a full test run). Outside the main thread, nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    noted: list[signal.Signals] = []
    numbers = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    before = {number: signal.getsignal(number) for number in numbers}

    def note(number: int, frame: object) -> None:
        noted.append(signal.Signals(number))

    def act() -> None:
        if not noted:
            return
        number = noted.pop(0)
        handler = before[number]
        if callable(handler):
            handler(number, None)  # stop_signals' handler or Python's own for Ctrl-C: KeyboardInterrupt
        elif handler == signal.SIG_DFL:
            signal.signal(number, signal.SIG_DFL)
            signal.raise_signal(number)  # what the signal does by default: the process ends

    for number in numbers:
        if before[number] != signal.SIG_IGN:
            signal.signal(number, note)
    try:
        yield act
    finally:
        for number, handler in before.items():
            if handler is not None:
                signal.signal(number, handler)


_LOST = "a worker process ended without handing back its run (killed, or out of memory)"


def _submit(pool: ProcessPoolExecutor, run: Callable[[J], Row], job: J) -> Future[Row]:
    """``pool.submit``; a pool a dead worker broke (noticed between ``wait`` and here) stops with WorkerLost."""
    try:
        return pool.submit(run, job)
    except BrokenProcessPool:
        raise WorkerLost(_LOST) from None


def _keep_done(futures: Iterable[Future[Row]], on_row: Callable[[Row], None]) -> bool:
    """Give ``on_row`` the row of each finished future; whether a worker died under any of them."""
    lost = False
    for future in futures:
        if future.cancelled():
            continue
        if isinstance(future.exception(), BrokenProcessPool):
            lost = True
            continue
        on_row(future.result())
    return lost


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now, their runs unfinished (ProcessPoolExecutor has no public way before
    Python 3.14's ``terminate_workers``)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError, ValueError):
            process.kill()
            process.join(timeout=5)


@contextlib.contextmanager
def stop_signals() -> Iterator[list[int]]:
    """While inside, SIGTERM and SIGHUP stop the experiment as Ctrl-C does (KeyboardInterrupt); the list yielded
    gets the number of the signal that did. Outside the main thread, nothing changes (signals go there only)."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return

    def interrupt(number: int, frame: object) -> None:
        caught.append(number)
        raise KeyboardInterrupt

    before = {number: signal.signal(number, interrupt) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield caught
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def require_dask() -> None:
    """Raise ExperimentError, saying how to install it, if Dask's distributed scheduler is missing."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ExperimentError("the dask engine needs its extra: pip install 'pyramid[dask]'") from None


def run_dask(
    jobs: Sequence[J], run: Callable[[J], Row], workers: int, address: str | None, on_row: Callable[[Row], None]
) -> None:
    """``run`` each of ``jobs`` on a Dask cluster: the scheduler at ``address``, or a local cluster of ``workers``
    processes."""
    require_dask()
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if address is None:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        )
    client = Client(address or cluster)
    if cluster is not None:
        client.run(_quiet_stdout)  # the local workers' PyBullet banners would cover the progress bar
    try:
        futures = client.map(run, list(jobs), pure=False)
        try:
            for future in as_completed(futures):
                on_row(future.result())
        finally:
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

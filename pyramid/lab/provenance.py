"""What a run was made on: the machine and the physics stack, as plain data, and what differs between two records.

A scene's run is bit-exact only on the same kind of machine with the same wheels (``docs/reproducibility.md``):
another CPU, C library, Python or pybullet, numpy or scipy may round differently and so send a chaotic run
elsewhere. Every run report (``runner.run_scene``) and every experiment folder (``experiment.json``) records
``provenance()``; a resume on another one is warned of with ``differences`` and ``warnings``.

>>> record = provenance()
>>> sorted(record)
['cpu', 'machine', 'os', 'packages', 'python']
>>> differences(record, record)
[]
"""

from __future__ import annotations

import copy
import functools
import platform
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("numpy", "pybullet", "scipy", "pyramid")  # the physics stack and the package itself
# The instruction sets that decide how the solver's floating point is compiled and rounded (x86, then ARM).
SIMD = ("sse2", "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512vl", "neon", "asimd", "sve")
CPUINFO = Path("/proc/cpuinfo")
MODEL_KEYS = ("model name", "Model", "Hardware", "cpu model", "Processor")  # x86, then ARM and others
FLAG_KEYS = ("flags", "Features")  # x86, then ARM


@dataclass(frozen=True)
class Difference:
    """One thing that differs between two records: what (``pybullet``, ``cpu features``...), then and now."""

    what: str
    was: str
    now: str


def provenance() -> dict[str, Any]:
    """This machine and its physics stack as plain JSON data: os, machine, cpu (model, simd), python, packages."""
    return copy.deepcopy(_provenance())


@functools.cache
def _provenance() -> dict[str, Any]:
    return {
        "os": _os(),
        "machine": platform.machine() or "unknown",
        "cpu": cpu(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "packages": {name: package_version(name) for name in PACKAGES},
    }


def _os() -> str:
    """The operating system and its C library (``Linux with glibc 2.36``): libm's rounding is the C library's."""
    libc, version = platform.libc_ver()
    system = platform.system() or "unknown"
    return f"{system} with {libc} {version}" if libc else system


def cpu(cpuinfo: str | None = None) -> dict[str, Any]:
    """The CPU's model and its SIMD features from ``/proc/cpuinfo`` (or ``cpuinfo``); simd None where unreadable."""
    if cpuinfo is None:
        try:
            cpuinfo = CPUINFO.read_text(encoding="utf-8", errors="replace")
        except OSError:
            cpuinfo = ""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip() not in fields:
            fields[key.strip()] = value.strip()
    model = next((fields[k] for k in MODEL_KEYS if fields.get(k)), "") or platform.processor() or "unknown"
    flags = next((fields[k].split() for k in FLAG_KEYS if k in fields), None)
    simd = None if flags is None else [name for name in SIMD if name in flags]
    return {"model": model, "simd": simd}


def package_version(name: str) -> str | None:
    """The installed version of the distribution ``name`` (None if it is not installed)."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def differences(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[Difference]:
    """What differs from ``recorded`` to ``current``, package by package, then python, os, machine and cpu."""
    out: list[Difference] = []
    was_packages, now_packages = _mapping(recorded.get("packages")), _mapping(current.get("packages"))
    names = {*was_packages, *now_packages}
    for name in [n for n in PACKAGES if n in names] + sorted(names - set(PACKAGES)):
        out += _differ(name, was_packages.get(name), now_packages.get(name))
    for key in ("python", "os", "machine"):
        out += _differ(key, recorded.get(key), current.get(key))
    was_cpu, now_cpu = _mapping(recorded.get("cpu")), _mapping(current.get("cpu"))
    out += _differ("cpu", was_cpu.get("model"), now_cpu.get("model"))
    out += _differ("cpu features", _features(was_cpu.get("simd")), _features(now_cpu.get("simd")))
    return out


def _mapping(value: Any) -> Mapping[str, Any]:
    """A part of a record that should be an object; an empty one where a hand-edited file holds something else."""
    return value if isinstance(value, Mapping) else {}


def _differ(what: str, was: Any, now: Any) -> list[Difference]:
    if was == now:
        return []
    return [Difference(what, _shown(was), _shown(now))]


def _shown(value: Any) -> str:
    return "none" if value is None or value == "" else str(value)


def _features(simd: Any) -> str | None:
    """SIMD features as compared and shown: ``sse4_2 avx avx2``; None where they could not be read."""
    if simd is None:
        return None
    return " ".join(str(s) for s in simd) if simd else "none of " + " ".join(SIMD)


def warnings(recorded: Any, current: Mapping[str, Any], what: str = "experiment") -> list[str]:
    """One warning line per difference between the record ``what`` was started with and ``current``.

    A missing record (None, or not a JSON object) gets one line saying so.
    """
    if not isinstance(recorded, Mapping):
        return [
            f"warning: this {what} records no machine or versions (it was started before pyramid recorded them): "
            "its runs so far may differ bit for bit from those made now; statistics still compare"
        ]
    return [
        f"warning: this {what} was started with {d.what} {d.was}, this is {d.now}: its runs may differ bit for bit; "
        "statistics still compare"
        for d in differences(recorded, current)
    ]


def summary_line(record: Mapping[str, Any]) -> str:
    """A record in one line: ``Linux with glibc 2.36 x86_64 (AMD EPYC: avx avx2), CPython 3.11.7, numpy 2.4.6...``."""
    cpu_record = _mapping(record.get("cpu"))
    simd = _features(cpu_record.get("simd"))
    chip = f"{cpu_record.get('model', 'unknown')}: {simd}" if simd else cpu_record.get("model", "unknown")
    packages = ", ".join(f"{k} {_shown(v)}" for k, v in _mapping(record.get("packages")).items())
    return f"{record.get('os')} {record.get('machine')} ({chip}), {record.get('python')}, {packages}"

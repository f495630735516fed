"""What the benches ran on: the processor, its logical CPUs and caches, read from Linux's
``/proc`` and ``/sys`` (a field this system does not show is left out).

Why: a bench figure of one day is compared with another day's, and the machines differ: the
same code played 5.2 to 6.0 ``pimc`` Skat deals/s in one session and 3.4 to 3.6 in the
next (``docs/solver.md``). The processor and its caches (the solver's table waits on memory)
tell which figures came from alike machines.
"""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any

from joblib import cpu_count

CPUINFO = Path("/proc/cpuinfo")
CACHES = Path("/sys/devices/system/cpu/cpu0/cache")


def _model(cpuinfo: str) -> str:
    """The processor's name in ``/proc/cpuinfo``'s text, else ``platform``'s.

    >>> _model("processor : 0\\nmodel name\\t: AMD EPYC\\nflags : fpu\\n")
    'AMD EPYC'
    """
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "model name":
            return value.strip()
    return platform.processor() or platform.machine()


def _kib(size: str) -> int:
    """A cache size as ``/sys`` writes it (``32K``, ``1024K``, ``32M``) in KiB.

    >>> _kib("1024K"), _kib("32M")
    (1024, 32768)
    """
    size = size.strip()
    scale = {"K": 1, "M": 1024, "G": 1024 * 1024}.get(size[-1:], 0)
    return int(size[:-1]) * scale if scale else int(size) // 1024


def machine() -> dict[str, Any]:
    """``{"cpu": name, "cpus": n, "l2_kib": ..., "l3_kib": ...}``: the processor, the CPUs this
    process may use (joblib's count, as for the bench's workers), and the size of the
    level-2 cache (one core's) and level-3 cache that CPU 0 sees."""
    info: dict[str, Any] = {
        "cpu": _model(CPUINFO.read_text() if CPUINFO.exists() else ""),
        "cpus": cpu_count(),
    }
    for index in sorted(CACHES.glob("index*")) if CACHES.exists() else []:
        level = (index / "level").read_text().strip()
        if level in ("2", "3") and (index / "type").read_text().strip() != "Instruction":
            info[f"l{level}_kib"] = _kib((index / "size").read_text())
    return info


def describe(info: dict[str, Any]) -> str:
    """One line for a person: ``machine: AMD EPYC, 2 CPUs, L2 1024 KiB, L3 32768 KiB``.

    >>> describe({"cpu": "AMD EPYC", "cpus": 2, "l2_kib": 1024, "l3_kib": 32768})
    'machine: AMD EPYC, 2 CPUs, L2 1024 KiB, L3 32768 KiB'
    """
    caches = [f"L{k[1]} {v} KiB" for k, v in info.items() if k.endswith("_kib")]
    return ", ".join([f"machine: {info['cpu']}", f"{info['cpus']} CPUs", *caches])

"""Stand-ins for ``check_config`` that a check process runs by reference: endless, hungry, crashing, answering.

Each takes ``check_config``'s arguments; the pool pickles the function by name, so they live in a module.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from effbatch.core.configs import Check, CheckError, ProblemKind, Source, World


def answers(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    """A check that says B = 256 and carries the process id it ran in (as the world's ``where``)."""
    return Check("deepspeed", (), World(8, str(os.getpid())), 8, 4, 8, 256, None)


def refuses(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    raise CheckError(ProblemKind.EMPTY, name=sources[0].name)


def endless(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    while True:  # waits without using CPU time: only the wall-clock wait ends it
        time.sleep(0.01)


def spins(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    """Computes without end, as a hostile input would: its CPU time runs out."""
    while True:
        sum(range(1000))


def hungry(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    """Asks for 8 GiB at once: more than any cap the tests give (the cap refuses the address space)."""
    bytearray(8 * 1024**3)
    return answers(sources)


def crashes(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    msg = "a bug in a reader"
    raise KeyError(msg)


#: What ``scripted`` does for each source text.
SCRIPT = {"endless": endless, "spins": spins, "hungry": hungry, "crashes": crashes, "refuses": refuses}


def scripted(
    sources: Sequence[Source],
    world: World | None = None,
    framework: str | None = None,
    max_bytes: int = 0,
    *,
    gpu: str | None = None,
) -> Check:
    """The stand-in named by the first source's text (``SCRIPT``); ``answers`` for any other text."""
    return SCRIPT.get(sources[0].text, answers)(sources, world, framework, max_bytes, gpu=gpu)

"""The ``prüfe`` grammar of the command parser:
``/effbatch prüfe [gpus=64 | nodes=8 gpus_per_node=8] [gpu=h100] [privat] …``.

A command whose first word is a check word asks for a config check; leading settings give the world
size, the GPU the memory estimate holds the run against, and privacy; the rest is the pasted config
(code blocks become sources of their own). Used by the Slack listeners, the console and the fuzzer alike; pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from effbatch.core.configs import Source, World, clean

#: The key a channel profile's GPUs are added to a check with, and where its world size then says it came from.
PROFILE_GPUS = "profile_gpus"
PROFILE_WORLD = "channel profile"
#: The words that turn a command into a config check.
CHECK_WORDS = frozenset({"prüfe", "pruefe", "prüfen", "pruefen", "check"})
PRIVATE_WORDS = frozenset({"privat", "private"})
_WORLD_KEYS = {
    "gpus": "world",
    "world": "world",
    "world_size": "world",
    "nodes": "nodes",
    "nnodes": "nodes",
    PROFILE_GPUS: "profile",
}
_PER_NODE_KEYS = frozenset({"gpus_per_node", "nproc_per_node", "per_node"})
_GPU_KEYS = frozenset({"gpu", "gpu_type"})
#: A GPU's name as ``gpu=`` takes it (``h100``, ``a100-80``, ``tpu-v5e``); ``check_config`` says which it knows.
_GPU_NAME = re.compile(r"[\w.-]{1,40}")
_LEADING_WORD = re.compile(r"(\S+)\s*")
_FENCED = re.compile(r"```(?:[\w+-]*\n)?(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class CheckRequest:
    """What ``prüfe …`` asks: the config text, a world size if given, privately or not, a GPU if named."""

    text: str
    world: World | None = None
    private: bool = False
    gpu: str | None = None


def is_check(text: str) -> bool:
    words = text.strip().split(None, 1)
    return bool(words) and words[0].casefold() in CHECK_WORDS


def check_request(text: str) -> CheckRequest:
    """``prüfe [gpus=64 | nodes=8 gpus_per_node=8] [gpu=h100] [privat] <config>`` split into its parts."""
    rest = _LEADING_WORD.sub("", text.strip(), count=1)  # the command word
    settings: dict[str, int] = {}
    private, gpu = False, None
    while match := _LEADING_WORD.match(rest):
        word = match.group(1)
        key, has_value, value = word.casefold().partition("=")
        if word.casefold() in PRIVATE_WORDS:
            private = True
        elif has_value and key in _GPU_KEYS and _GPU_NAME.fullmatch(value):
            gpu = value
        elif (
            has_value
            and value.isascii()
            and value.isdigit()
            and len(value) <= 7
            and (key in _WORLD_KEYS or key in _PER_NODE_KEYS)
        ):
            settings[_WORLD_KEYS.get(key, "per_node")] = int(value)
        else:
            break
        rest = rest[match.end() :]
    world = None
    if settings.get("profile"):
        world = World(settings["profile"], PROFILE_WORLD)
    elif settings.get("world"):
        world = World(settings["world"], f"gpus={settings['world']}")
    elif settings.get("nodes") and settings.get("per_node"):
        size = settings["nodes"] * settings["per_node"]
        world = World(size, f"{settings['nodes']} × {settings['per_node']} GPUs")
    return CheckRequest(rest, world, private, gpu)


def sources_of(text: str, pasted: str, block: str) -> list[Source]:
    """Pasted text as sources: each code block one (``{block} 1`` …), plus a launch line outside them; or the whole
    text as ``pasted``. The names are the caller's, so they read in its language."""
    blocks = [found for found in _FENCED.findall(text) if found.strip()]
    if not blocks:
        return [Source(pasted, clean(text))]
    sources = [Source(f"{block} {n}", clean(found)) for n, found in enumerate(blocks, start=1)]
    outside = _FENCED.sub("\n", text).strip()
    if "--" in outside:
        sources.append(Source(pasted, clean(outside)))
    return sources

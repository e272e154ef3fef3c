"""„Gelesen“: each value a check read, as its file writes it, and where from – the file and line, the layer it
overrode, how a world size came about – in German, shortened to what Slack takes. Pure."""

from __future__ import annotations

import re
from typing import Any

from effbatch.bot.document import Bullet
from effbatch.bot.texts import checks as texts
from effbatch.bot.texts.glossary import list_de
from effbatch.core.check_command import PROFILE_WORLD
from effbatch.core.configs import Check, Read, Via

#: Values read listed one by one (a section holds 3.000 characters); the rest are counted.
MAX_READS_SHOWN = 20
#: A place a value was read from, as the answer shows it; longer ones are shortened at the front.
MAX_PLACE = 80


def reads(check: Check) -> tuple[Bullet | str, ...]:
    """Each value read, as the file writes it (32768, not 32.768: findable there), and where from; long values
    shortened and a long list counted, so Slack takes the section."""
    shown = check.read if len(check.read) <= MAX_READS_SHOWN + 1 else check.read[:MAX_READS_SHOWN]
    lines: list[Bullet | str] = [Bullet(_read_line(r)) for r in shown]
    if len(shown) < len(check.read):
        lines.append(texts.READ_MORE.format(count=len(check.read) - MAX_READS_SHOWN))
    return tuple(lines)


def _read_line(read: Read) -> str:
    """``key = value (where)``, then what it set again (``überschreibt …``) and where a name it reads was set."""
    line = texts.READ_LINE.format(
        key=_shortened(read.key), value=_shortened(_written(read.value)), where=_place(read.where)
    )
    if read.via is not None:
        line += _via_line(read.via)
    if read.over is not None:
        value, where = read.over
        shown = texts.READ_OVER_TEXT.format(value=value) if isinstance(value, str) else _written(value)
        line += texts.READ_OVER.format(value=_shortened(shown), where=_place(where))
    return line


def _via_line(via: Via) -> str:
    """Where a value a script only names was set: „aus BATCH (train.py:3)“, „Vorgabe von --bs (train.py:5)“,
    „--bs in der Startzeile (launch.sh:1), statt der Vorgabe 8 (train.py:5)“."""
    line = texts.READ_VIA[via.origin].format(name=_shortened(via.name), where=_place(via.where))
    if via.replaced is not None:
        value, replaced_where = via.replaced
        line += texts.READ_VIA_REPLACED.format(value=_shortened(_written(value)), where=replaced_where)
    return line


def _written(value: Any) -> str:
    """A value read, as its file writes it: numbers without German grouping, switches as ja/nein."""
    if isinstance(value, bool):
        return texts.READ_TRUE if value else texts.READ_FALSE
    if isinstance(value, int | float):
        return repr(value)
    return str(value)


def _place(where: str) -> str:
    """Where a value was read (at most 80 characters): an explanation before the file („#SBATCH 1 × 4, run.sh:3“)
    said in words; a second line of the same file only as its number („run_grpo.sh, Zeilen 14 und 15“); a long
    path shortened at a folder's boundary at its front, so its file's name and line stay."""
    if where == PROFILE_WORLD:
        return texts.WHERE_PROFILE
    said, _, place = where.rpartition(", ")
    if said and not _PATH_LIKE.search(place):  # no file after the comma: one explanation
        said, place = "", where
    said = _explained(said) if said else ""
    places = place.split(" · ")
    files = [p.rpartition(":")[0] for p in places]
    if len(places) > 1 and files[0] and all(f == files[0] for f in files):
        lines = list_de(p.rpartition(":")[2] for p in places)
        shown = texts.PLACE_LINES.format(file=_front_cut(files[0], MAX_PLACE - len(lines) - len(said)), lines=lines)
    else:
        budget = MAX_PLACE  # the explanation is short; the places get the whole width
        whole = list_de(places)
        shown = whole if len(whole) <= budget else list_de(_front_cut(p, budget // len(places)) for p in places)
    return f"{said}, {shown}" if said else shown


#: A place names a file when it has a path, an extension or a line.
_PATH_LIKE = re.compile(r"[/.:]")
_SBATCH_WHERE = re.compile(r"#SBATCH (\d+) × (\d+)")
_NODES_WHERE = re.compile(r"(\d+) × (\d+)(?: GPUs)?")


def _explained(said: str) -> str:
    """How a world size came about, in words: „#SBATCH 1 Knoten × 4 GPUs“, „Startzeile `deepspeed`“."""
    if match := _SBATCH_WHERE.fullmatch(said):
        return texts.WHERE_SBATCH.format(nodes=match[1], per_node=match[2])
    if match := _NODES_WHERE.fullmatch(said):
        return texts.WHERE_NODES.format(nodes=match[1], per_node=match[2])
    if said.isidentifier() or said in texts.LAUNCHERS:
        return texts.WHERE_LAUNCH.format(launcher=said)
    return said


def _front_cut(text: str, limit: int) -> str:
    """``text`` cut at its front to ``limit`` characters, at a folder's boundary where there is one."""
    if len(text) <= limit:
        return text
    tail = text[1 - limit :]
    cut = tail.find("/")
    return "…" + (tail[cut:] if 0 <= cut < len(tail) - 1 else tail)


def _shortened(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"

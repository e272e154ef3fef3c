"""Real bash as the oracle for the shell reader: a script run in an empty environment, its variables read back.

Nothing of effbatch runs a script; only the tests do, to compare. Each run is ``bash --norc --noprofile`` with no
environment but ``PATH`` (a folder holding one stub program, ``run``, that writes down the words it was given), in
a temporary folder, with a timeout. An ``EXIT`` trap set before the script writes every variable asked for:
unset, a scalar and its value, or an array and its elements (read with ``declare -p`` and a name reference), as
bash has them when the script ends (also through ``exit``, also inside a function).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from effbatch.core.configs import CheckError
from effbatch.core.configs.shell import MAX_ALTERNATIVES, Reading, Sources, alternatives, grammar_errors, reading

BASH = shutil.which("bash") or "/bin/bash"

#: One variable as bash or the reader has it: ("U",) unset, ("S", value), ("A", *elements).
Value = tuple[str, ...]

_SHOW = r"""__effbatch_show() {
  local __n __f __e
  for __n in NAMES; do
    __f=$(declare -p "$__n" 2>/dev/null) || { printf 'U\0%s\0' "$__n"; continue; }
    __f=${__f#declare -}; __f=${__f%% *}
    local -n __r=$__n
    if [[ $__f == *a* ]]; then
      printf 'A\0%s\0%s\0' "$__n" "${#__r[@]}"
      for __e in "${__r[@]}"; do printf '%s\0' "$__e"; done
    elif [[ -v __r ]]; then
      printf 'S\0%s\0%s\0' "$__n" "$__r"
    else
      printf 'U\0%s\0' "$__n"
    fi
    unset -n __r
  done > OUT
}; trap __effbatch_show EXIT
"""

_STUB = """#!BASH
printf '%s\\0' "$#" "$@" >> LOG  # one printf, one write: stages of a pipeline never interleave
"""


@dataclass(frozen=True)
class Ran:
    """What bash left: each variable asked for, and the words each ``run`` command was given, in order."""

    values: dict[str, Value]
    runs: list[tuple[str, ...]]
    #: bash reported an error in an arithmetic expression (its message names the "error token").
    arithmetic_error: bool = False


def run_bash(
    script: str,
    names: Sequence[str],
    timeout: float = 20,
    arguments: Sequence[str] = (),
    files: Mapping[str, str] | None = None,
) -> Ran:
    """``script`` run by bash as a file (``bash script.sh ARGUMENTS``), with ``files`` (path → text) beside it in
    the folder it runs in; the variables ``names`` as bash has them at its end."""
    with tempfile.TemporaryDirectory(prefix="effbatch-bash-") as folder:
        root = Path(folder)
        (root / "bin").mkdir()
        for path, text in (files or {}).items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        out, log = root / "values", root / "runs"
        stub = root / "bin" / "run"
        stub.write_text(_STUB.replace("BASH", BASH).replace("LOG", str(log)))
        stub.chmod(0o755)
        show = _SHOW.replace("NAMES", " ".join(names)).replace("OUT", str(out))
        (root / "script.sh").write_text(show + script)
        done = subprocess.run(
            [BASH, "--norc", "--noprofile", "script.sh", *arguments],
            cwd=root,
            env={"PATH": str(root / "bin")},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        runs = _runs(log.read_bytes() if log.exists() else b"")
        return Ran(_values(out.read_bytes()), runs, b"(error token is" in done.stderr)


def _values(data: bytes) -> dict[str, Value]:
    fields = data.decode("utf-8", "surrogateescape").split("\0")
    found: dict[str, Value] = {}
    position = 0
    while position < len(fields) - 1:
        kind, name = fields[position], fields[position + 1]
        if kind == "U":
            found[name], position = ("U",), position + 2
        elif kind == "S":
            found[name], position = ("S", fields[position + 2]), position + 3
        else:
            count = int(fields[position + 2])
            elements = fields[position + 3 : position + 3 + count]
            found[name], position = ("A", *elements) if elements else ("U",), position + 3 + count
    return found


def _runs(data: bytes) -> list[tuple[str, ...]]:
    fields = data.decode("utf-8", "surrogateescape").split("\0")
    found, position = [], 0
    while position < len(fields) - 1:
        count = int(fields[position])
        found.append(("run", *fields[position + 1 : position + 1 + count]))
        position += 1 + count
    return found


def ours(reading: Reading, name: str) -> Value | None:
    """A variable as the reader has it; None where the reader names it unknown."""
    if name in reading.unknown:
        return None
    if name in reading.script.arrays:
        elements = reading.script.arrays[name]
        return ("A", *elements) if elements else ("U",)  # bash's empty array is as good as unset
    if name in reading.script.variables:
        return ("S", reading.script.variables[name])
    return ("U",)


def disagreements(reading: Reading, ran: Ran, names: Sequence[str]) -> dict[str, tuple[Value, Value]]:
    """Every variable the reader says it knows whose value is not bash's: name -> (reader's, bash's)."""
    found = {}
    for name in names:
        mine = ours(reading, name)
        if mine is not None and mine != ran.values[name]:
            found[name] = (mine, ran.values[name])
    return found


def decided_runs(reading: Reading) -> list[tuple[str, ...]] | None:
    """The ``run`` commands the reader says the script runs, where it decides all of them (None: it does not)."""
    runs = [command.words for command in reading.script.commands if command.words[:1] == ("run",)]
    if reading.unknown or any("$" in word for words in runs for word in words):
        return None
    return runs


def compare(script: str, names: Sequence[str], files: Mapping[str, str] | None = None) -> str:
    """``script`` read and run (with ``files`` beside it, which its ``source`` lines may read); an ``AssertionError``
    where the reader knows a value or a ``run`` command that is not bash's. Where the reader names a condition
    undecided, one of its alternatives (all of them enumerated) must be bash's run. The result says how the reader
    answered (for hypothesis' statistics)."""
    sources = Sources({"script.sh": script, **files}, "script.sh") if files else None
    try:
        read = reading(script, sources=sources)
        choices = alternatives(script, sources=sources)
    except CheckError as error:  # a bound: the whole script named unreadable
        return f"refused: {error.ctx.get('detail')}"
    if grammar_errors(script) or any(grammar_errors(text) for text in (files or {}).values()):
        return "named: lines the grammar cannot read"
    if read.script.undecided and len(choices) >= MAX_ALTERNATIVES:
        return "named: more alternatives than enumerated"
    ran = run_bash(script, names, files=files)
    if read.unknown and ran.arithmetic_error:
        # the reader takes a value it names unknown to be one bash computes with; here bash stopped at an error,
        # and the rest of that line never ran: not a value the reader decided
        return "named: values unknown where bash stopped at an arithmetic error"
    readings = [Reading(choice.script, choice.unknown) for choice in choices]
    found = [(disagreements(r, ran, names), decided_runs(r)) for r in readings]
    in_order = "|" not in script  # the stages of a pipeline run at the same time: their order is not bash's to keep
    expected = ran.runs if in_order else sorted(ran.runs)
    assert any(
        not wrong and (runs is None or (runs if in_order else sorted(runs)) == expected) for wrong, runs in found
    ), (script, found, ran.runs)
    if read.script.undecided:
        return "named: undecided conditions, bash took one of the alternatives"
    return "all decided" if not read.unknown else "some variables named unknown"

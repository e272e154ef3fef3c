"""A Python file as a source: its module-level names as data (nanoGPT's ``exec``'d configs), its whole reading
(``Parsed.python``: every call and its arguments, for the frameworks that read training scripts), and
torchtitan's config registries (``TrainingConfig(…)``/``ParallelismConfig(…)`` in the first config function).

Read by ``core.configs.read.python`` (an evaluator over ``ast``); nothing runs. The launch line and the
launcher's environment are not known here: ``checking`` reads a script again with them where a launch line
names it.
"""

from __future__ import annotations

from typing import Any

from effbatch.core.configs.base import Format, Given, Instance, Parsed, PyScript, Source, Unknown
from effbatch.core.configs.read.python import read_python
from effbatch.core.configs.read.python.objects import deep_known

#: torchtitan's config registries (since February 2026): ``TrainingConfig(...)`` and ``ParallelismConfig(...)``.
_REGISTRY_SECTIONS = {"TrainingConfig": "training", "ParallelismConfig": "parallelism"}


def parse_python(source: Source) -> Parsed:
    """The file read once, without a launch line (``CheckError`` where Python's own parser gives up)."""
    script = read_python(source.text, source.name)
    return python_parsed(source, script)


def python_parsed(source: Source, script: PyScript) -> Parsed:
    """``script`` (``source`` read) as a ``Parsed``: the names its assignments set as data, known values as they
    are and the rest as written (so a check names them instead of assuming a default)."""
    return Parsed(source, Format.PYTHON, _names(script) | _registry_sections(script), python=script)


def _names(script: PyScript) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, given in script.names.items():
        if _assigned(given):
            data[name] = given.value if deep_known(given.value) else given.written or str(given.value)
    return data


def _assigned(given: Given) -> bool:
    """Bound by an assignment (not an import, a ``def`` or a ``class``)."""
    return not given.written.startswith(("import ", "def ", "class ")) and not isinstance(given.value, Instance)


def _registry_sections(script: PyScript) -> dict[str, Any]:
    """The keyword arguments of the first config function's ``TrainingConfig``/``ParallelismConfig`` calls.

    A registry defines one function per variant; the first is read (``registry_function`` names it,
    ``registry_functions`` counts them). Values the reader cannot decide are kept as written.
    """
    calls = [c for c in script.called(*_REGISTRY_SECTIONS) if c.function and "." not in c.function]
    if not calls:
        return {}
    first = calls[0].function
    sections: dict[str, Any] = {"registry_function": first, "registry_functions": len(script.functions)}
    for call in calls:
        section = _REGISTRY_SECTIONS[call.name]
        if call.function == first and section not in sections:
            sections[section] = {k: _plain(v) for k, v in call.keywords.items()}
    return sections


def _plain(given: Given) -> Any:
    value = given.value
    return value if deep_known(value) and not isinstance(value, Unknown) else given.written

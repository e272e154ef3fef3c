"""JSON (duplicate keys refused, as DeepSpeed refuses them) and TOML, into a mapping."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from effbatch.core.configs.base import CheckError, Format, Parsed, ProblemKind, Source


def parse_json(source: Source) -> Parsed:
    try:
        data = json.loads(source.text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=error.lineno, detail=error.msg) from None
    except _DuplicateKeyError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail=str(error)) from None
    return Parsed(source, Format.JSON, mapping(data, source))


class _DuplicateKeyError(ValueError):
    """DeepSpeed refuses JSON with a key given twice (dict_raise_error_on_duplicate_keys); so does effbatch."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    counts = Counter(key for key, _ in pairs)  # keys.count per key would be quadratic in 10.000 keys
    duplicates = sorted(key for key, count in counts.items() if count > 1)
    if duplicates:
        msg = f"duplicate key: {', '.join(duplicates)}"
        raise _DuplicateKeyError(msg)
    return data


def parse_toml(source: Source) -> Parsed:
    import tomllib  # on first use: a check of a JSON or YAML file never reads TOML

    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        raise CheckError(
            ProblemKind.UNREADABLE, name=source.name, line=int(line.group(1)) if line else None, detail=str(error)
        ) from None
    return Parsed(source, Format.TOML, data)


def mapping(data: object, source: Source) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail="not_a_mapping")
    return data

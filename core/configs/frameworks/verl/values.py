"""Hydra's values of a verl run: ``key=value`` words of the ``main_ppo``/``main_dapo`` command, or a YAML's nested
keys; each recorded with where it was written when it is used, verl's default where it is absent."""

from __future__ import annotations

from typing import Any

from effbatch.core.configs.base.rules import Fix, Syntax
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, lookup, whole
from effbatch.core.configs.frameworks.verl.keys import (
    ACTOR_ROLLOUT,
    CP,
    DEFAULTS,
    DYNAMIC,
    MEGATRON,
    MODULES,
    READ,
    REMOVE_PADDING,
    SCRIPTS,
    SHOWN_DEFAULTS,
    SINCE_0_2_SUFFIX,
    STRATEGY,
)


def is_main(words: tuple[str, ...]) -> bool:
    """``python3 -m verl.trainer.main_ppo`` (or DAPO's ``recipe.dapo.main_dapo``), or either run as a file; or a
    repository's own entry point (``ray job submit … -- python -m main_ppo``, ``python3 -m recipe.x.main_grpo``)
    given verl's Hydra overrides, which only verl names ``actor_rollout_ref.…``."""
    if any(word in MODULES or word.endswith(SCRIPTS) for word in words):
        return True
    python = any(word.rsplit("/", 1)[-1].startswith("python") for word in words)
    return python and any(word.lstrip("+~").startswith(ACTOR_ROLLOUT) and "=" in word for word in words)


def is_config(parsed: Parsed) -> bool:
    return parsed.format in (Format.YAML, Format.JSON) and isinstance(parsed.data.get("actor_rollout_ref"), dict)


class Values:
    """The settings as given; ``number``/``optional``/``switch`` record each when used."""

    def __init__(self, reading: Reading, sources: list[Parsed]) -> None:
        self.reading = reading
        self.given: dict[str, tuple[Parsed, Any]] = {}
        self.config_name = ""
        self.dapo = False
        self.noted: set[str] = set()
        self.defaulted: list[str] = []
        for parsed in sources:
            if is_config(parsed):
                for key in READ:
                    if (value := lookup(parsed.data, key)) is not None:
                        self.given[key] = (parsed, value)
            elif parsed.format is Format.SHELL and parsed.script is not None:
                for command in parsed.script.commands:
                    if is_main(command.words):
                        self.dapo = self.dapo or any("main_dapo" in word for word in command.words)
                        self._words(parsed, command.words)

    def _words(self, parsed: Parsed, words: tuple[str, ...]) -> None:
        for word in words:
            key, has_value, value = word.partition("=")
            if key in ("--config-name", "--config_name"):
                self.config_name = value
            elif has_value and not key.startswith("-"):
                self.given[key.lstrip("+~")] = (parsed, value.strip("'\""))

    def where(self, key: str) -> str | None:
        if key not in self.given:
            return None
        parsed = self.given[key][0]
        return parsed.where(key if parsed.format is Format.SHELL else key.rsplit(".", 1)[-1])

    def raw(self, key: str) -> Any:
        if key not in self.given:
            return None
        value = self.given[key][1]
        if key not in self.noted:
            self.noted.add(key)
            self.reading.note(key, value, self.where(key) or "")
        return value

    def optional(self, key: str) -> int | None:
        value = self.raw(key)
        if value is None or str(value).lower() in ("null", "none", "~"):
            return None
        return whole(value, key, self.where(key) or "")

    def number(self, key: str, default: int | None = None) -> int:
        value = self.optional(key)
        if value is None and key in SHOWN_DEFAULTS and key not in self.defaulted:
            self.defaulted.append(key)
        if value is not None:
            return value
        return DEFAULTS[key] if default is None else default

    def switch(self, key: str, default: bool = False) -> bool:
        value = self.raw(key)
        return default if value is None else str(value).lower() == "true"

    def text(self, key: str) -> str | None:
        value = self.raw(key)
        return None if value is None else str(value)

    def megatron(self) -> bool:
        """The Megatron worker: ``--config-name ppo_megatron_trainer``, ``actor.strategy=megatron``, or its keys."""
        strategy = self.given.get(STRATEGY, (None, ""))[1]
        return "megatron" in self.config_name or strategy == "megatron" or any(k in self.given for k in (*MEGATRON, CP))

    def dynamic(self) -> bool:
        return self.switch(DYNAMIC)

    def newer_key(self) -> str | None:
        """A key verl has only from 0.2 on (``*_micro_batch_size_per_gpu``, #136): Hydra refuses it before."""
        return next((key for key in self.given if key.endswith(SINCE_0_2_SUFFIX)), None)

    def fix(self, key: str, *candidates: int | None) -> Fix | None:
        """The fix as the config writes it: ``key=value`` on a command line, ``leaf: value`` in YAML."""
        parsed = self.given[key][0] if key in self.given else None
        syntax = Syntax.YAML if parsed is not None and parsed.format is not Format.SHELL else Syntax.OVERRIDE
        if key == REMOVE_PADDING:
            return None
        given = tuple(v for v in candidates if v is not None and v >= 1)
        return Fix(key, given, syntax) if given else None

"""YAML with PyYAML's safe loader (no Python tags) under a composer that counts as it composes: aliases, the values
with every alias expanded (against "billion laughs") and the nesting; libyaml's C parser where PyYAML has it."""

from __future__ import annotations

from typing import Any

import yaml

from effbatch.core.configs.base import CheckError, Format, Parsed, ProblemKind, Source
from effbatch.core.configs.read.bounds import MAX_ALIASES, MAX_DIGITS, MAX_NESTING, MAX_YAML_VALUES
from effbatch.core.configs.read.structured import mapping


class _BoundedComposer(yaml.composer.Composer):
    """PyYAML's composer, counting as it composes: aliases (at most ``MAX_ALIASES``), the values the document
    holds with every alias expanded (at most ``MAX_YAML_VALUES``) and the nesting (at most ``MAX_NESTING``).

    Whatever the spelling (block, flow mappings, merge keys), each alias is one event here.
    """

    def __init__(self) -> None:
        super().__init__()
        self.aliases = 0
        self.depth = 0
        #: Values under each composed node with aliases expanded, by the node's id (nodes live until loaded).
        self.sizes: dict[int, int] = {}

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]  # the parser's, mixed in beside
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise CheckError(ProblemKind.UNSAFE, detail="aliases", max=MAX_ALIASES)
            return super().compose_node(parent, index)  # an anchored node, its size already known
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise CheckError(ProblemKind.UNREADABLE, line=None, detail="nesting", max=MAX_NESTING)
        node = super().compose_node(parent, index)
        self.depth -= 1
        if node is not None:
            self._measure(node)
        return node

    def _measure(self, node: yaml.Node) -> None:
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        if not children:
            return  # a scalar (or an empty collection) counts one, the default
        sizes = self.sizes
        size = 1 + sum(sizes.get(id(child), 1) for child in children)
        if size > MAX_YAML_VALUES:
            raise CheckError(ProblemKind.UNSAFE, detail="expanded", max=MAX_YAML_VALUES)
        sizes[id(node)] = size


class _BoundedLoader(
    _BoundedComposer,
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    yaml.constructor.SafeConstructor,
    yaml.resolver.Resolver,
):
    """PyYAML's safe loader (no Python tags) with the counting composer."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _BoundedComposer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


#: libyaml's scanner and parser, when PyYAML was built with it (yaml.cyaml's, which the stubs do not declare).
_CParser: Any = getattr(yaml.cyaml, "CParser", None) if yaml.__with_libyaml__ else None
_LOADER: Any = _BoundedLoader

if _CParser is not None:

    class _FastBoundedLoader(
        _BoundedComposer,
        _CParser,  # type: ignore[misc]  # Any to mypy
        yaml.constructor.SafeConstructor,
        yaml.resolver.Resolver,
    ):
        """libyaml's scanner and parser (C) under the same counting composer: the events come from C, every
        node (and alias) still passes ``compose_node`` here."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _BoundedComposer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    _LOADER = _FastBoundedLoader


def _bounded_int(loader: Any, node: yaml.ScalarNode) -> int:
    """YAML 1.1's ints, refused beyond ``MAX_DIGITS`` characters before PyYAML computes them (``1:59:59:…`` in
    base 60 costs a big multiplication per part; ``0x…`` and ``1_000_…`` escape the digit-run check)."""
    if len(node.value) > MAX_DIGITS:
        raise CheckError(ProblemKind.UNREADABLE, line=node.start_mark.line + 1, detail="long_number", max=MAX_DIGITS)
    value: int = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    return value


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _bounded_int)
_LOADER.add_constructor("tag:yaml.org,2002:int", _bounded_int)


def _include(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    """Levanter's ``data: !include data/openwebtext_source.yaml``: kept as written (a path); nothing is read."""
    return f"!include {node.value}" if isinstance(node, yaml.ScalarNode) else "!include"


_BoundedLoader.add_constructor("!include", _include)
_LOADER.add_constructor("!include", _include)


def parse_yaml(source: Source) -> Parsed:
    """The safe loader with the counting composer; either reader refuses control characters itself."""
    loader: Any = None
    try:
        loader = _LOADER(source.text)
        data = loader.get_single_data()
    except CheckError as error:
        raise CheckError(error.kind, name=source.name, **error.ctx) from None
    except yaml.constructor.ConstructorError as error:
        line = error.problem_mark.line + 1 if error.problem_mark else None
        raise CheckError(ProblemKind.UNSAFE, name=source.name, line=line, detail="tag") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise CheckError(
            ProblemKind.UNREADABLE, name=source.name, line=line, detail=str(error).split("\n")[0]
        ) from None
    finally:
        if loader is not None:
            loader.dispose()
    return Parsed(source, Format.YAML, mapping(data, source))

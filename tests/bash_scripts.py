"""Scripts for the differential test against bash: hypothesis strategies over the part of bash the reader decides.

Assignments (``=``, ``+=``, arrays and their elements), arithmetic with every operator and precedence level
written without parentheses so bash decides the grouping, the ``${X:-w}`` family, quoting and word splitting,
``if``/``elif``/``else``, ``case`` with ``;;`` ``;&`` ``;;&``, ``&&``/``||`` chains with ``{ …; }`` groups,
``( … )``, pipelines, functions with ``local`` and ``return``, ``readonly``, ``export``, ``declare``, ``unset``,
``for`` loops over literal words, ``for ((…))`` and ``while`` loops with literal bounds (their counter stepped
first in the body, so ``continue`` never loops forever), ``break``/``continue``, ``exit``, the positional
parameters (``set --``, ``shift``, ``$1``, ``$#``, ``"$@"``, ``$*``, a function's own words), ``$[ … ]``, and the
stub program ``run`` (its words compared too), also where a comment cut its continued line or a redirection's
target is followed by more words. A function's body defines and calls no function, so nothing recurses; each
nesting depth has its own loop counter, so no loop resets another's.
"""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

#: The variables a script assigns and the test compares (counters of loops are i, j; arrays ARR, LST).
NAMES = ("A", "B", "C", "X", "MB", "GBS")
ARRAYS = ("ARR", "LST")
COUNTERS = ("c0", "c1", "c2", "c3")
ALL = (*NAMES, *ARRAYS, *COUNTERS)

_names = st.sampled_from(NAMES)
_arrays = st.sampled_from(ARRAYS)
_literals = st.sampled_from(["a", "b", "x1", "4", "16", "07", "-3", "big", "0x1f"])
_spaced = st.sampled_from(["a b", " c  d ", "", "*", "x*", "1 2 3", "big"])
_globs = st.sampled_from(["a", "b*", "*", "?", "[ab]*", "x1"])
_patterns = st.one_of(_globs, st.sampled_from(["big|a", "4|16"]))

_BINARY = ["+", "-", "*", "/", "%", "**", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||"]
_ASSIGNING = ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="]


@cache
def _operand(depth: int) -> st.SearchStrategy[str]:
    simple = st.one_of(
        st.integers(-3, 12).map(str),
        _names,
        _names.map(lambda n: "$" + n),
        st.sampled_from(["010", "0x1f", "2#101", "36#z", "08"]),
        st.sampled_from(["63", "64", "65", "200", "-64"]),  # shift counts: bash takes them modulo 64
        _names.map(lambda n: n + "++"),
        _names.map(lambda n: "--" + n),
    )
    if depth <= 0:
        return simple
    return st.one_of(simple, simple, arithmetic(depth - 1, top=False).map(lambda e: f"( {e} )"))


@cache
def arithmetic(depth: int = 1, top: bool = True) -> st.SearchStrategy[str]:
    """An expression as written in ``$(( … ))``: prefixes, operators of every level, ``?:``, ``,``, assignments
    (``,`` not inside parentheses: tree-sitter-bash cannot read ``( a , b )``, and the reader names such lines)."""
    term = st.tuples(st.lists(st.sampled_from(["-", "+", "!", "~"]), max_size=2), _operand(depth)).map(
        lambda t: " ".join([*t[0], t[1]])
    )
    chain = st.tuples(term, st.lists(st.tuples(st.sampled_from(_BINARY), term), max_size=2)).map(
        lambda t: " ".join([t[0], *(f"{op} {right}" for op, right in t[1])])
    )
    return st.one_of(
        chain,
        chain,
        st.tuples(chain, chain, chain).map(lambda t: f"{t[0]} ? {t[1]} : {t[2]}"),
        st.tuples(_names, st.sampled_from(_ASSIGNING), chain).map(" ".join),
        *([st.tuples(chain, chain).map(lambda t: f"{t[0]} , {t[1]}")] if top else []),
    )


@cache
def _expansion() -> st.SearchStrategy[str]:
    return st.one_of(
        _names.map(lambda n: f"${n}"),
        st.tuples(_names, st.sampled_from([":-", "-", ":=", "=", ":+", "+"]), _literals).map(
            lambda t: "${" + "".join(t) + "}"
        ),
        _names.map(lambda n: "${#" + n + "}"),
        st.tuples(_arrays, st.sampled_from(["@", "*", "0", "1", "-1"])).map(lambda t: f"${{{t[0]}[{t[1]}]}}"),
        _arrays.map(lambda a: "${#" + a + "[@]}"),
        arithmetic(1).map(lambda e: f"$(( {e} ))"),
        arithmetic(1).map(lambda e: f"$[ {e} ]"),  # bash's older spelling of $(( ))
        st.just("$?"),
        st.sampled_from(["$1", "$2", "${3}", "$#", "$@", "$*", "${2:-d}", "${#1}"]),  # the positional parameters
    )


@cache
def word() -> st.SearchStrategy[str]:
    """One word: a literal, quoted text with expansions, or an expansion (unquoted: split as bash splits it)."""
    quoted = st.lists(st.one_of(_spaced, _expansion()), min_size=1, max_size=3).map(lambda p: '"' + "".join(p) + '"')
    return st.one_of(
        _literals,
        _spaced.map(lambda s: f"'{s}'"),
        quoted,
        _expansion(),
        st.tuples(_literals, _expansion()).map("".join),
    )


@cache
def _simple() -> st.SearchStrategy[str]:
    words = st.lists(word(), max_size=3).map(" ".join)
    return st.one_of(
        st.tuples(_names, st.sampled_from(["=", "+="]), word()).map("".join),
        st.tuples(_arrays, st.sampled_from(["=", "+="]), words).map(lambda t: f"{t[0]}{t[1]}({t[2]})"),
        st.tuples(_arrays, st.integers(-1, 3), word()).map(lambda t: f"{t[0]}[{t[1]}]={t[2]}"),
        arithmetic().map(lambda e: f"(( {e} ))"),
        st.tuples(st.sampled_from(["readonly", "export", "declare", "local"]), _names, word()).map(
            lambda t: f"{t[0]} {t[1]}={t[2]}"
        ),
        st.tuples(st.sampled_from(["readonly", "unset", "local", "export"]), st.sampled_from(NAMES + ARRAYS)).map(
            " ".join
        ),
        st.sampled_from(["true", "false", ":"]),
        words.map(lambda w: f"run {w}"),
        st.tuples(word(), word()).map(lambda t: f"run {t[0]} \\\n  # --skipped 1 \\\n  run {t[1]}"),
        st.tuples(word(), word()).map(lambda t: f"run {t[0]} \\\n  # --skipped 1 \\\n  --flag {t[1]}"),
        # words after a redirection's target are the command's (the prelude creates the file read)
        st.tuples(word(), st.sampled_from(["> out", "2>&1", "< in.txt", ">> out 2>&1", "&> out"]), words).map(
            lambda t: f"run {t[0]} {t[1]} {t[2]}"
        ),
        st.sampled_from(["shift", "shift 2", "shift 5"]),
        words.map(lambda w: f"set -- {w}"),
    )


@cache
def _condition(depth: int, function: bool) -> st.SearchStrategy[str]:
    calls = [] if function else [st.just("f")]
    test = st.one_of(
        st.sampled_from(["true", "false"]),
        st.tuples(_names, st.sampled_from(["=", "!="]), _literals).map(lambda t: f'[ "${t[0]}" {t[1]} "{t[2]}" ]'),
        st.tuples(st.sampled_from(["-z", "-n"]), _names).map(lambda t: f'[ {t[0]} "${t[1]}" ]'),
        st.tuples(_names, _globs).map(lambda t: f"[[ ${t[0]} == {t[1]} ]]"),
        arithmetic(1).map(lambda e: f"(( {e} ))"),
        *calls,
    )
    if depth <= 0:
        return test
    return st.one_of(
        test,
        test.map(lambda c: "! " + c),
        st.tuples(test, st.sampled_from(["&&", "||"]), test).map(" ".join),
        statements(depth - 1, function=function).map(lambda b: "{ " + b + "; }"),
    )


@cache
def statements(depth: int = 2, loop: bool = False, function: bool = False) -> st.SearchStrategy[str]:
    """A list of statements, one a line or joined by ``;``."""
    one = statement(depth, loop, function)
    return st.tuples(st.lists(one, min_size=1, max_size=3), st.sampled_from(["\n", "; "])).map(
        lambda t: t[1].join(t[0])
    )


@cache
def statement(depth: int, loop: bool, function: bool) -> st.SearchStrategy[str]:
    """One statement; compound ones only above depth 0."""
    simple = _simple()
    flow = []
    if loop:
        flow.append(st.sampled_from(["break", "continue", "break 2", "continue 2"]))
    if function:
        flow.append(st.sampled_from(["return", "return 0", "return 3"]))
    if depth <= 0:
        return st.one_of(simple, *flow)
    inner = statements(depth - 1, loop, function)
    body = statements(depth - 1, loop=True, function=function)
    counter = COUNTERS[depth]
    calls = []
    if not function:
        calls = [
            st.tuples(st.sampled_from(["f", "g"]), statements(depth - 1, loop=False, function=True)).map(
                lambda t: f"{t[0]}() {{ {t[1]}; }}"
            ),
            st.sampled_from(["f", "g", "MB=9 f", "f; X=$?", "f a '1 2'", 'g "$@"', "f $*"]),
        ]
    return st.one_of(
        simple,
        simple,
        *flow,
        st.tuples(
            _condition(depth - 1, function),
            inner,
            st.none() | _condition(depth - 1, function),
            inner,
            st.none() | inner,
        ).map(_if),
        st.tuples(word(), st.lists(st.tuples(_patterns, inner, st.sampled_from([";;", ";&", ";;&"])), max_size=3)).map(
            _case
        ),
        st.tuples(inner, st.sampled_from(["&&", "||"]), inner, st.sampled_from(["&&", "||"]), inner).map(
            lambda t: f"{{ {t[0]}; }} {t[1]} {{ {t[2]}; }} {t[3]} {{ {t[4]}; }}"
        ),
        st.tuples(simple, st.sampled_from(["&&", "||"]), simple).map(" ".join),
        inner.map(lambda b: f"( {b} )"),
        st.tuples(inner, inner).map(lambda t: f"{{ {t[0]}; }} | {{ {t[1]}; }}"),
        *calls,
        st.tuples(_names, st.lists(word(), max_size=3).map(" ".join), body).map(
            lambda t: f"for {t[0]} in {t[1]}; do {t[2]}; done"
        ),
        st.tuples(st.integers(0, 4), body).map(
            lambda t: f"for (( {counter}=0; {counter}<{t[0]}; {counter}++ )); do {t[1]}; done"
        ),
        st.tuples(st.integers(0, 4), body).map(
            lambda t: f"{counter}=0; while (( {counter} < {t[0]} )); do (( ++{counter} )); {t[1]}; done"
        ),
    )


def _if(parts: tuple[str, str, str | None, str, str | None]) -> str:
    condition, then, other, other_body, otherwise = parts
    text = f"if {condition}; then {then}; "
    if other is not None:
        text += f"elif {other}; then {other_body}; "
    if otherwise is not None:
        text += f"else {otherwise}; "
    return text + "fi"


def _case(parts: tuple[str, list[tuple[str, str, str]]]) -> str:
    subject, items = parts
    return f"case {subject} in " + " ".join(f"{p}) {b} {end}" for p, b, end in items) + " esac"


def prelude() -> st.SearchStrategy[str]:
    """Every variable set or unset by the script itself, and ``f``, ``g`` defined: bash's empty environment is not
    what the reader assumes of a variable the script never sets (the environment may hold it), nor of a command it
    cannot find (taken to succeed)."""
    scalars = [st.one_of(_literals.map(f"{name}={{}}".format), st.just(f"unset {name}")) for name in NAMES]
    arrays = [st.one_of(st.just(f"{a}=(a 1 '2 3')"), st.just(f"{a}=()"), st.just(f"unset {a}")) for a in ARRAYS]
    # the words values are made of, read as names in $(( $X )): unset by the script too
    words = "unset a b x1 big\n"
    # the script's arguments: none, or some set by the script itself (``bash_oracle`` starts it without any)
    arguments = st.sampled_from(["", "set -- 4 x1\n", "set -- '1 2' '' 16 big\n", "set -- a\n"])
    head = st.tuples(*scalars, *arrays).map(lambda parts: "; ".join(parts) + "\nf() { :; }; g() { :; }\n" + words)
    return st.tuples(head, arguments).map(lambda t: t[0] + ": > in.txt\n" + t[1])


def scripts() -> st.SearchStrategy[str]:
    """A whole script: the prelude, a few statements, sometimes an ``exit`` at the end."""
    body = statements(2).map(lambda s: s + "\n")
    return st.tuples(prelude(), body, st.sampled_from(["", "", "", "exit 2\n"])).map("".join)

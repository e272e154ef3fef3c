"""Launch lines and bash launch scripts, read (never run) by a real grammar: tree-sitter-bash and a small evaluator.

``read_script(text) -> Script``: what the script sets and runs, in order, every expansion that the
script's own values resolve resolved (``evaluator.Run`` walks the tree, one piece per
kind of bash construct: ``statements``, ``commands``, ``conditions``, ``branching``, ``words``, ``expansions``,
``arithmetic``):

- assignments ``VAR=value``, ``VAR+=value``, ``export``/``local``/``declare``/``readonly``, ``unset``;
- ``$VAR``, ``${VAR}``, ``${VAR:-w}``/``${VAR-w}``/``${VAR:=w}``/``${VAR:+w}``, ``${#VAR}``, arrays
  ``A=(…)``, ``A+=(…)``, ``A[i]=w``, ``${A[@]}``/``${A[*]}``/``${A[i]}``/``${#A[@]}``;
- ``$((…))`` integer arithmetic as bash computes it (C division, ``**``, comparisons, ``?:``), and
  its assignments (``(( X += 2 ))``, ``X++``, ``let``); ``read``/``getopts``/``mapfile`` make a variable unknown;
- quoting (``'…'``, ``"…"``, ``$'…'``, backslashes), word splitting of unquoted values, continuations;
- ``;``, ``&&``, ``||``, ``|``; ``{ …; }`` and ``( … )``; functions (their body where they are called);
  loops (their body once, the loop variable unknown, what they assign unknown after them); ``exit`` ends
  the reading;
- commands built in strings or arrays: ``$CMD …``, ``bash -c "$CMD"``, ``sh -c``, ``eval``;
- ``VAR=value cmd`` and ``env VAR=value cmd``: ``Command.env`` (for that command only);
- ``if``/``elif``/``else``, ``[ … ]``, ``[[ … ]]``, ``test``, ``(( … ))`` and ``case … esac``: the branch
  is decided where the condition is decidable from the script's own values (``=``, ``==``, ``!=``, globs
  in ``[[ ]]`` and ``case``, ``-z``/``-n``, ``-eq``/``-ne``/``-lt``/``-le``/``-gt``/``-ge``, ``!``, ``&&``/``||``).

What the script does not set itself (``$1``, ``$@``, the environment, ``$(…)``, a file test) is unknown
and stays as written (``$4``), so a value that depends on it reads as unresolved, never guessed.

Undecided conditions. A condition that depends on something unknown is never decided silently:
``Script.undecided`` lists each one met (``Undecided(condition, variables, line)``: the condition as
written, the unknown variables it names, its line), and ``alternatives(text)`` enumerates the feasible
branch choices, each an ``Alternative(label, script)`` with a plain-English label such as
``[ "$MODE" = big ] (line 12)`` or ``not [ -z "$NNODES" ] (line 3)`` (several choices joined by
``"; "``), at most ``MAX_ALTERNATIVES`` (8), in a stable order. A branch that ``exit``s is not a run
that trains, so it is no alternative. ``read_script`` returns the first alternative (at each undecided
condition the first feasible branch), so ``read_script(t).undecided`` non-empty means: check
``alternatives(t)`` and say when they differ. A script without undecided conditions has exactly one
alternative, labelled ``"as written"``. For example::

    text = 'if [ "$1" = big ]; then GBS=1024; else GBS=256; fi\ntorchrun … --global-batch-size $GBS'
    read_script(text).undecided  # (Undecided(condition='[ "$1" = big ]', variables=('1',), line=1),)
    [(a.label, a.script.variables["GBS"]) for a in alternatives(text)]
    # [('[ "$1" = big ] (line 1)', '1024'), ('not [ "$1" = big ] (line 1)', '256')]

Bounds (issue 19): parsing stops after ``MAX_PARSE_SECONDS`` of CPU time (tree-sitter's error recovery
is quadratic on some broken shapes); no value or word longer than ``MAX_VALUE_CHARS``; no array longer
than ``MAX_ARRAY``; no integer beyond ``MAX_DIGITS`` digits (``**`` and ``<<`` checked before computing);
budgets of steps (``MAX_STEPS``) and of characters produced (``MAX_CHARS``) per reading; a nesting depth
(``MAX_DEPTH``) over commands, expansions, ``&&`` chains, ``bash -c`` and functions; at most
``MAX_UNDECIDED`` undecided conditions in one reading; ``alternatives`` reads a script at most
``MAX_ALTERNATIVES`` times, in at most ``MAX_ALTERNATIVE_STEPS`` steps together. Reaching one raises
``CheckError(ProblemKind.UNREADABLE, detail="shell_…", max=…, line=…)``; ``bot.texts.checks`` words each.

Also here: ``grammar_errors(text)`` (the lines the grammar could not read). Launch lines as words (``split_words``,
``split_launch``, ``flags``) are ``core.configs.base.words``: no grammar needed.

Nothing is ever executed.
"""

from core.configs.base import Command, Script, Undecided
from core.configs.shell.limits import (
    MAX_ALTERNATIVE_STEPS,
    MAX_ALTERNATIVES,
    MAX_ARRAY,
    MAX_CHARS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_PARSE_SECONDS,
    MAX_STEPS,
    MAX_UNDECIDED,
    MAX_VALUE_CHARS,
)
from core.configs.shell.reader import Alternative, Reading, alternatives, grammar_errors, read_script, reading

__all__ = [
    "MAX_ALTERNATIVES",
    "MAX_ALTERNATIVE_STEPS",
    "MAX_ARRAY",
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_PARSE_SECONDS",
    "MAX_STEPS",
    "MAX_UNDECIDED",
    "MAX_VALUE_CHARS",
    "Alternative",
    "Command",
    "Reading",
    "Script",
    "Undecided",
    "alternatives",
    "grammar_errors",
    "read_script",
    "reading",
]

"""Launch lines and bash launch scripts, read (never run) by a real grammar: tree-sitter-bash and a small evaluator.

``read_script(text) -> Script``: what the script sets and runs, in order, every expansion that the
script's own values resolve resolved (``evaluator.Run`` walks the tree, one piece per
kind of bash construct: ``statements``, ``commands``, ``scopes``, ``loops``, ``conditions``, ``branching``,
``words``, ``expansions``, ``arithmetic``, ``computing``); ``reading(text) -> Reading`` also names the variables
whose value only the run decides. Held to real bash by ``tests/test_shell_bash.py`` (a table and generated
scripts): what the reader says it knows is bash's value.

- assignments ``VAR=value``, ``VAR+=value``, ``export``/``declare``/``typeset``, ``unset``; ``readonly`` (and
  ``declare -r``): a later assignment fails as in bash and the value stays; ``local`` (and ``declare`` in a
  function) undone when the function returns, refused outside one;
- ``$VAR``, ``${VAR}``, ``${VAR:-w}``/``${VAR-w}``/``${VAR:=w}``/``${VAR:+w}``, ``${#VAR}``, ``$?``, arrays
  ``A=(…)``, ``A+=(…)``, ``A[i]=w``, ``${A[@]}``/``${A[*]}``/``${A[i]}``/``${#A[@]}`` (a gap in an array: unknown);
- ``$((…))``, ``(( … ))``, ``let`` as bash computes them: the expression's expansions replaced first, the text
  read by bash's own precedence (``precedence``: unary operators bind to their operand, ``**``, ``?:`` and
  assignments group to the right), in 64 bits (beyond them refused, never wrapped), ``&&``/``||``/``?:`` that
  skip a side; ``read``/``getopts``/``mapfile`` make a variable unknown;
- errors bash reports (a division by zero or a malformed number in ``$((…))``, an assignment to a readonly
  variable) end the line they are on, as in bash, and the reading goes on with the next;
- quoting (``'…'``, ``"…"``, ``$'…'``, backslashes), word splitting of unquoted values, continuations; a
  ``#`` line inside a continued command ends it (what follows is a command of its own; one that starts with a
  flag is no program: status 127, nothing recorded); a redirection takes one word, the words after its target are
  the command's (``--port <your_port> --bs 4`` passes ``--port 4``, output into a file ``--bs``);
- the positional parameters ``$1`` …, ``$#``, ``$@``, ``$*`` where known: ``read_script(text, env, arguments)``
  (a script another source runs, ``bash train.sh 2 8``), ``set -- …``, ``shift``, a function's own words,
  ``for a; do``; ``$[ … ]`` is ``$(( … ))``;
- ``;``, ``&&``, ``||`` (a group's status is its last command's); ``{ …; }``; ``( … )`` and each stage of a
  pipeline in a process of their own (what they assign stays there); functions (their body where they are
  called, ``return`` ends it); ``exit`` ends the reading;
- loops: ``for … in`` over known words, ``for ((…))``, ``while``/``until`` run pass by pass where every
  condition is decided (``break``/``continue``), within ``MAX_LOOP_STEPS`` (a run given up costs
  ``MAX_GIVEN_UP_STEPS`` of all loops together, not the reading's steps); any other loop (or one beyond its
  budget) is read once, its variable and all it may assign unknown after it;
- commands built in strings or arrays: ``$CMD …``, ``bash -c "$CMD"``, ``sh -c``, ``eval``; a job launcher's
  command string (MaxText's ``multihost_runner``/``multihost_job`` ``--COMMAND``, ``xpk workload create
  --command``: ``remote``) read as the bash on each host reads it, without the launching script's variables;
- ``source FILE`` and ``. FILE`` where FILE is among the sources (``read_script(text, sources=Sources(files,
  name))``): read in this shell, as bash does, what it sets the script's (``sourcing``: which source is meant, a
  choice where several are, ``MAX_SOURCE_DEPTH`` files deep and ``MAX_SOURCED_CHARS`` in all);
- ``VAR=value cmd`` and ``env VAR=value cmd``: ``Command.env`` (for that command only);
- ``if``/``elif``/``else``, ``[ … ]``, ``[[ … ]]``, ``test``, ``(( … ))`` and ``case … esac``: the branch
  is decided where the condition is decidable from the script's own values (``=``, ``==``, ``!=``, globs
  in ``[[ ]]`` and ``case``, ``-z``/``-n``, ``-eq``/``-ne``/``-lt``/``-le``/``-gt``/``-ge``, ``!``, ``&&``/``||``).

What the script does not set itself (``$1``, ``$@`` of a script nobody among the sources starts, the environment,
``$(…)``, a file test) is unknown and stays as written (``$4``), so a value that depends on it reads as
unresolved, never guessed. Three things are taken as the script's author means them, not decided: a program only
the run knows succeeds (``cd /w && torchrun …``), a file a command reads from (``< in.txt``) exists (bash would
not start the command otherwise: status 1), and an unknown value is one bash can compute with (no error in
``$(( $NNODES * 8 ))``).

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

Bounds, for hostile scripts: parsing stops after ``MAX_PARSE_SECONDS`` of CPU time (tree-sitter's error recovery
is quadratic on some broken shapes); no value or word longer than ``MAX_VALUE_CHARS``; no array longer
than ``MAX_ARRAY``; no integer beyond bash's 64 bits (``MAX_DIGITS``; ``**`` and ``<<`` checked before computing);
budgets of steps (``MAX_STEPS``) and of characters produced (``MAX_CHARS``) per reading; a nesting depth
(``MAX_DEPTH``) over commands, expansions, ``&&`` chains, ``bash -c`` and functions; at most
``MAX_UNDECIDED`` undecided conditions in one reading; ``alternatives`` reads a script at most
``MAX_ALTERNATIVES`` times, in at most ``MAX_ALTERNATIVE_STEPS`` steps together. Reaching one raises
``CheckError(ProblemKind.UNREADABLE, detail="shell_…", max=…, line=…)``; ``bot.texts.checks`` words each.

Also here: ``grammar_errors(text)`` (the lines the grammar could not read). Launch lines as words (``split_words``,
``split_launch``, ``flags``) are ``core.configs.base.words``: no grammar needed.

Nothing is ever executed.
"""

from effbatch.core.configs.base import Command, Script, Undecided
from effbatch.core.configs.shell.limits import (
    MAX_ALTERNATIVE_STEPS,
    MAX_ALTERNATIVES,
    MAX_ARRAY,
    MAX_CHARS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_GIVEN_UP_STEPS,
    MAX_LOOP_STEPS,
    MAX_PARSE_SECONDS,
    MAX_SOURCE_DEPTH,
    MAX_SOURCED_CHARS,
    MAX_STEPS,
    MAX_UNDECIDED,
    MAX_VALUE_CHARS,
)
from effbatch.core.configs.shell.reader import (
    Alternative,
    Reading,
    Sources,
    alternatives,
    grammar_errors,
    read_script,
    reading,
)

__all__ = [
    "MAX_ALTERNATIVES",
    "MAX_ALTERNATIVE_STEPS",
    "MAX_ARRAY",
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_GIVEN_UP_STEPS",
    "MAX_LOOP_STEPS",
    "MAX_PARSE_SECONDS",
    "MAX_SOURCED_CHARS",
    "MAX_SOURCE_DEPTH",
    "MAX_STEPS",
    "MAX_UNDECIDED",
    "MAX_VALUE_CHARS",
    "Alternative",
    "Command",
    "Reading",
    "Script",
    "Sources",
    "Undecided",
    "alternatives",
    "grammar_errors",
    "read_script",
    "reading",
]

"""Python files read, never run: a small evaluator over ``ast`` for what training scripts and configs write.

``read_python(text, name, argv=…, environ=…) -> PyScript``: the module run statement by statement over the
script's own values (literals, arithmetic, every assignment shape, ``if``/``for``/``while`` where decidable,
the functions it calls, its dataclasses), argparse's and ``HfArgumentParser``'s arguments filled from the
launch line, ``os.environ`` and the world size from the launcher; every call recorded with its arguments.
What the script's values do not decide is an ``Unknown`` that names what it needs – never a guess.

Split by what Python has, as the shell reader is by what bash has: ``statements``, ``expressions``, ``calls``
(with ``argparser`` and ``command_line`` for argparse by its own rules, ``arguments`` for ``HfArgumentParser``),
``operators`` for Python's arithmetic within the bounds (``limits``), one ``State`` the pieces share,
``evaluator.Reader`` binding them; ``sites`` indexes where a launch script or recipe writes its numbers (each
function read on its own, its values computed by the same expressions). Differential tests hold it to Python itself
on generated literal-only scripts (``tests/test_python_reader.py``, the recipes' expressions too) and to argparse on
generated parsers and command lines (``tests/test_python_argparse.py``).
"""

from effbatch.core.configs.read.python.evaluator import read_python
from effbatch.core.configs.read.python.objects import PartialEnviron

__all__ = ["PartialEnviron", "read_python"]

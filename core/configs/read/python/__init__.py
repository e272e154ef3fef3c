"""Python files read, never run: a small evaluator over ``ast`` for what training scripts and configs write.

``read_python(text, name, argv=…, environ=…) -> PyScript``: the module run statement by statement over the
script's own values (literals, arithmetic, every assignment shape, ``if``/``for``/``while`` where decidable,
the functions it calls, its dataclasses), argparse's and ``HfArgumentParser``'s arguments filled from the
launch line, ``os.environ`` and the world size from the launcher; every call recorded with its arguments.
What the script's values do not decide is an ``Unknown`` that names what it needs – never a guess.

Split by what Python has, as the shell reader is by what bash has: ``statements``, ``expressions``, ``calls``
(with ``arguments`` for the command line), ``operators`` for Python's arithmetic within the bounds
(``limits``), one ``State`` the pieces share, ``evaluator.Reader`` binding them. A differential test holds it
to Python itself on generated literal-only scripts.
"""

from effbatch.core.configs.read.python.evaluator import read_python
from effbatch.core.configs.read.python.objects import PartialEnviron

__all__ = ["PartialEnviron", "read_python"]

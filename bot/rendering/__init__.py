"""From core results to what people read: the document, then its layouts.

``answers`` (with ``help``, ``problems``, ``whatif``) composes a ``bot.document.Document``
from a command, using ``formulas`` and ``formatting`` for the numbers; ``block_kit``
lays it out for Slack, ``plain_text`` for terminals; ``views`` builds the modal and
the App Home. Pure functions throughout.
"""

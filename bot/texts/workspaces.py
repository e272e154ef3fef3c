"""What a workspace that has not installed effbatch (through OAuth) is told, and the install pages."""

from __future__ import annotations

NOT_INSTALLED = (
    "effbatch ist in diesem Workspace nicht installiert (oder wurde deinstalliert). "
    "Bitte jemanden, der Apps installieren darf, effbatch über {install} hinzuzufügen; danach antwortet der Bot hier."
)
#: When the bot does not know its own address (SLACK_REDIRECT_URI unset).
INSTALL_PAGE = "die Installationsseite des Bots (die Adresse kennt, wer den Bot betreibt)"

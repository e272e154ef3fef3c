"""What a workspace that has not installed effbatch (through OAuth) is told, and the install pages."""

from __future__ import annotations

NOT_INSTALLED = (
    "effbatch ist in diesem Workspace nicht installiert (oder wurde deinstalliert). "
    "Wer Apps installieren darf, fügt es über {install} hinzu; danach antwortet es hier."
)
#: When the bot does not know its own address (SLACK_REDIRECT_URI unset).
INSTALL_PAGE = "die Installationsseite des Bots (…/slack/install)"

"""What a workspace that has not installed effbatch (through OAuth) is told, and the install pages."""

from __future__ import annotations

NOT_INSTALLED = (
    "effbatch ist in diesem Workspace nicht installiert (oder wurde deinstalliert). "
    "Bitte jemanden, der Apps installieren darf, effbatch über {install} hinzuzufügen; danach antwortet der Bot hier."
)
#: When the bot does not know its own address (SLACK_REDIRECT_URI unset).
INSTALL_PAGE = "die Installationsseite des Bots (die Adresse kennt, wer den Bot betreibt)"

# --- the pages of the installation (instead of Bolt's English defaults) -----------------------------
INSTALL_TITLE = "effbatch installieren"
INSTALL_TEXT = "effbatch rechnet die effektive Batch-Größe und prüft Trainingskonfigurationen – direkt in Slack."
INSTALL_LINK = "Zu Slack hinzufügen"
INSTALLED_TITLE = "Danke! effbatch ist installiert"
INSTALLED_TEXT = 'Weiter zu Slack: <a href="{app}">in der App</a> oder <a href="{browser}">im Browser</a>.'
FAILED_TITLE = "Die Installation hat nicht geklappt"
FAILED_TEXT = 'Versuch es noch einmal über <a href="{install}">die Installationsseite</a>. Grund: {reason}'

"""What a workspace that has not installed effbatch (through OAuth) is told, and the install pages."""

from __future__ import annotations

NOT_INSTALLED = (
    "effbatch ist in diesem Workspace nicht installiert (oder wurde deinstalliert). "
    "Bitte jemanden, der Apps installieren darf, effbatch über {install} hinzuzufügen; danach antwortet der Bot hier."
)
#: When the bot does not know its own address (SLACK_REDIRECT_URI unset).
INSTALL_PAGE = "die Installationsseite des Bots (die Adresse kennt, wer den Bot betreibt)"
#: A workspace whose token expired and whose refresh token Slack no longer takes: nothing but a reinstall helps.
ACCESS_LOST = (
    "effbatch hat in diesem Workspace keinen gültigen Zugang zu Slack mehr: Sein Token ist abgelaufen, und Slack "
    "nimmt das Token zum Erneuern nicht mehr an (die Antwort auf die letzte Erneuerung ging unterwegs verloren). "
    "Das lässt sich nur durch eine neue Installation beheben: Wer Apps installieren darf, installiert effbatch über "
    "{install} neu; die Channel-Profile bleiben erhalten."
)
#: A workspace whose token expired and whose refresh has not come back yet.
ACCESS_PENDING = (
    "effbatch erneuert gerade seinen Zugang zu diesem Workspace bei Slack. Versuch es in einer Minute noch einmal."
)
#: Only SLACK_BOT_TOKEN is set: either mode could be meant, and each lacks one setting.
FOR_HTTP = "fehlt für den HTTP-Modus (Signing Secret unter „Basic Information“) – oder SLACK_APP_TOKEN für Socket Mode"
FOR_SOCKET_MODE = "fehlt für Socket Mode (App-Level Token xapp-…) – oder SLACK_SIGNING_SECRET für den HTTP-Modus"
#: EFFBATCH_TRUSTED_PROXIES names something that is no address or network.
NOT_A_NETWORK = "„{value}“ ist keine IP-Adresse und kein Netz (z. B. 10.0.0.5 oder 10.0.0.0/8)"

# --- the pages of the installation (instead of Bolt's English defaults) -----------------------------
INSTALL_TITLE = "effbatch installieren"
INSTALL_TEXT = "effbatch rechnet die effektive Batch-Größe und prüft Trainingskonfigurationen – direkt in Slack."
INSTALL_LINK = "Zu Slack hinzufügen"
INSTALLED_TITLE = "Danke! effbatch ist installiert"
INSTALLED_TEXT = 'Weiter zu Slack: <a href="{app}">in der App</a> oder <a href="{browser}">im Browser</a>.'
FAILED_TITLE = "Die Installation hat nicht geklappt"
FAILED_TEXT = 'Versuch es noch einmal über <a href="{install}">die Installationsseite</a>. Grund: {reason}'

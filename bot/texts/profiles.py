"""What channel profiles say (``/effbatch cluster …``) and how a later answer names the profile it used.

Templates take formatted numbers; ``bot.rendering.profiles`` fills them in.
"""

from __future__ import annotations

from effbatch.bot.texts.glossary import COMMAND

#: One setting as shown: „64 GPUs“, „TP 8“, „GPU-Modell H100 SXM“ (a TPU: „Beschleuniger TPU v5e“).
SETTING = {
    "gpus": "{value} GPUs",
    "tp": "TP {value}",
    "pp": "PP {value}",
    "cp": "CP {value}",
    "sp": "SP {value}",
    "nodes": "{value} Knoten",
    "gpus_per_node": "{value} GPUs je Knoten",
    "gpu": "GPU-Modell {value}",
}
SETTING_CHIP = "Beschleuniger {value}"
#: The note atop an answer that took values from the profile; ``{user}`` becomes a mention.
FROM_PROFILE = "Aus dem Channel-Profil: {settings} – gesetzt von {user} am {when}."
WHEN = "{date} um {time} UTC"

SHOWN_TITLE = "Channel-Profil"
SHOWN_SUMMARY = "Channel-Profil: {settings}"
SET_TITLE = "Channel-Profil gespeichert"
SET_SUMMARY = "Channel-Profil gespeichert: {settings}"
SET_BY = "Gesetzt von {user} am {when}."
USED_AS_DEFAULTS = (
    "Spätere Antworten in diesem Channel nehmen diese Werte, wo ein Befehl sie nicht selbst nennt: "
    f"`{COMMAND} b=8 a=4 L=4096` rechnet dann mit den GPUs, der Parallelität und dem GPU-Modell des Profils. Nennt "
    "ein Befehl d oder die GPUs selbst, gelten seine Werte; `prüfe` nimmt die GPUs des Profils, wenn weder die "
    "Konfiguration noch der Befehl sie nennt."
)
HOW_TO_CHANGE = (
    f"Ändern: `{COMMAND} cluster gpus=… tp=…` (ersetzt das ganze Profil) · Entfernen: `{COMMAND} cluster löschen`"
)
NONE_TITLE = "Dieser Channel hat kein Channel-Profil"
NONE_SUMMARY = "Kein Channel-Profil in diesem Channel"
NONE_HOW = (
    f"Jedes Mitglied kann eins setzen, z. B. `{COMMAND} cluster gpus=64 tp=8 gpu=h100`: Spätere Antworten hier nehmen "
    "dann die GPUs, die Parallelität und das GPU-Modell daraus, wo ein Befehl sie nicht selbst nennt."
)
DELETED_TITLE = "Channel-Profil gelöscht"
DELETED_SUMMARY = "Channel-Profil gelöscht"
DELETED = "Antworten in diesem Channel rechnen wieder nur mit dem, was im Befehl steht."
NOTHING_TO_DELETE = "Dieser Channel hatte kein Channel-Profil – es gibt nichts zu löschen."
UNAVAILABLE_TITLE = "Channel-Profile gibt es hier nicht"
UNAVAILABLE = "Channel-Profile brauchen einen Channel und die Datenbank des Bots; hier gibt es keins von beiden."

ERROR_TITLE = "Dieses Channel-Profil kann ich nicht speichern"
ERROR_SUMMARY = "Channel-Profil nicht gespeichert"
ERROR_EXAMPLE = (
    f"Beispiel: `{COMMAND} cluster gpus=64 tp=8 gpu=h100` oder `{COMMAND} cluster nodes=8 gpus_per_node=8 pp=4`."
)
#: One message per ``core.profile.ProfileProblemKind``.
PROBLEMS = {
    "unknown_key": "„{text}“: {key} gehört nicht in ein Channel-Profil. Möglich sind {allowed}.",
    "not_a_setting": "„{text}“ ist keine Einstellung – geschrieben wird Schlüssel=Wert, z. B. tp=8.",
    "not_a_count": "„{text}“: {key} braucht eine ganze Zahl von 1 bis {max}.",
    "not_a_model": "„{text}“: dieses GPU-Modell kenne ich nicht. Möglich: {allowed}.",
    "duplicate": "„{text}“: {key} steht schon mit {first} im Befehl.",
    "nodes_without_per_node": "Knoten und GPUs je Knoten gehören zusammen: nodes=8 gpus_per_node=8.",
    "gpus_conflict": "gpus={gpus} passt nicht zu {nodes} Knoten × {per_node} GPUs je Knoten.",
    "not_divisible": "{gpus} GPUs lassen sich nicht in Replikate aus TP · PP · CP · SP = {split} GPUs teilen.",
}
ALLOWED_KEYS = "gpus, tp, pp, cp, sp, nodes, gpus_per_node und gpu (das GPU-Modell)"

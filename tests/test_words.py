"""The native review's points on the non-check texts (issue 23, „Words“), each as the user reads it."""

from __future__ import annotations

import json

import pytest

from bot.document import Visibility
from bot.rendering import views
from bot.rendering.answers import answer_command
from bot.rendering.plain_text import plain_text


def shown(command: str) -> str:
    """The answer to ``/effbatch COMMAND`` as the console shows it."""
    return plain_text(answer_command(command, Visibility.IN_CHANNEL).document)


# (command, what the answer says, what it must no longer say) – one row per point of the review.
CASES = [
    # Understood but not allowed is no misunderstanding.
    ("0 64 4", "Dieser Wert geht nicht", "Das habe ich nicht verstanden"),
    ("-8 64 4", "Dieser Wert geht nicht", "Das habe ich nicht verstanden"),
    ("8,5 64 4", "Dieser Wert geht nicht", "Das habe ich nicht verstanden"),
    ("0 0 4", "Diese Werte gehen nicht", "Das habe ich nicht verstanden"),
    # Over a bound is not a contradiction.
    ("100000 64 4", "Dieser Wert geht nicht", "Das passt nicht zusammen"),
    # One option: „liegt“; and a = 1 already gives 512 ≫ 100, so smaller b or d: 100 // 64 = 1, 100 // 8 = 12.
    ("b=8 d=64 B=100", "am nächsten liegt:\n• a = 1 → B = 512", "am nächsten liegen"),
    ("b=8 d=64 B=100", "kleineren Werten, z. B. b = 1 → B = 64 oder d = 12 → B = 96.", None),
    # Two options keep the plural: a = 1000 / 512 = 1,95… → 1 or 2.
    ("b=8 d=64 B=1000", "am nächsten liegen:", "kleineren Werten"),
    # √k = √(1/8) = 0,3536 shown as 0,354; 0,0003 × 0,354 = 0,0001062, shown 0,000106: „≈“, not „=“ (native
    # review row 14: as written the equation does not hold); the linear rule's 0,0003 × 8 = 0,0024 is exact.
    ("8 64 4 vs d=8 lr=3e-4", "0,0003 × 0,354 ≈ 0,000106", "× 0,35 "),
    ("8 64 4 vs d=512 lr=3e-4", "0,0003 × 2,83 = 0,000849", None),  # √8 = 2,828, shown 2,83: exact as shown
    ("8 64 4 vs d=512 lr=3e-4", "0,0003 × 8 = 0,0024", None),
    # With PP > 1, 1F1B keeps up to PP micro-batches in flight: min(8, a = 4) = 4.
    ("gpus=512 pp=8 b=8 a=4 act=1GiB", "hält eine Stufe bis zu PP Micro-Batches", "gleichzeitig liegen nur"),
    ("8 64 4 act=1GiB", "gleichzeitig liegen nur b Sequenzen im Speicher", "1F1B"),
    # One term for what d counts (native review rows 5 and 6): replicas, not „Kopien“ beside „Replikat“.
    ("gpus=512 tp=8 b=2 a=16", "d zählt die datenparallelen Replikate", "Kopien"),
    ("8 64 4 4096 vs", "Vor und nach vs muss je ein Setup stehen", "gehört ein Setup"),
    ("hilfe", "Alle im Channel können sie anklicken", "drücken"),
    ("hilfe", "nennt, wer sie zuletzt geändert hat", None),
    # „Dafür“ names what for: B = 2.000.000 / (1 · 8) = 250.000 > 65.536.
    ("gpus=8 b=1 B=2000000", "Für B = 2.000.000 wäre a = 250.000 nötig", "Dafür wäre"),
    # The bullet does not repeat the note below it (which names hilfe schlüssel).
    ("8 64 4 foo=3", "Unbekannter Schlüssel „foo“ in „foo=3“.\n", "Alle Schlüssel zeigt"),
]


@pytest.mark.parametrize(("command", "says", "not_any_more"), CASES)
def test_reviewed_wording(command: str, says: str, not_any_more: str | None) -> None:
    """Each reviewed sentence reads as the review asked."""
    text = shown(command)
    assert says in text
    if not_any_more:
        assert not_any_more not in text


def test_the_usage_note_is_said_once() -> None:
    """An unknown key: „hilfe schlüssel“ once, in the note – not in the bullet too."""
    assert shown("8 64 4 foo=3").count("hilfe schlüssel") == 1


def test_form_hint_says_when_to_leave_d_empty() -> None:
    """The calculator form's hint under d names the field below by its label."""
    form = json.dumps(views.form_view(Visibility.IN_CHANNEL, None).to_dict(), ensure_ascii=False)
    assert "Leer lassen, wenn du unten „GPUs gesamt“ ausfüllst." in form


def test_app_home_names_things_as_the_reference() -> None:
    """App Home: „Häufig gestellte Fragen“, and the effective batch under one name in the headings."""
    home = json.dumps(views.home_view().to_dict(), ensure_ascii=False)
    assert "Häufig gestellte Fragen" in home
    assert "Warum die effektive Batch-Größe zählt" in home
    assert "globale Batch" not in home

"""The native review's points on the non-check texts, each as the user reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering import views
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.checks import check_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.core.configs import Source, World, check_config


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
    # --- the second native review, by row ---
    # 8: a value given twice was understood; the two contradict each other.
    ("b=8 d=64 a=4 a=8", "Das passt nicht zusammen", "Das habe ich nicht verstanden"),
    # 9: `b=` then `d=64` is an empty b, not b = „d=64“ – and d was given.
    ("b= d=64 a=4", "In „b=“ fehlt der Wert nach =", "„d=64“ ist keine Zahl"),
    ("b= d=64 a=4", "In „b=“ fehlt der Wert nach =", "Es fehlt noch d"),
    # 10: a keyboard without umlauts.
    ("laufe", "„laufe“ kenne ich nicht – meintest du läufe?", "ist keine Zahl"),
    # 11: a rollout without mini says so, not „a fehlt“.
    ("prompts=512 n=8 b=4 gpus=64", "Für einen Rollout fehlt noch mini (Mini-Batch in Prompts)", "Es fehlt noch a"),
    # 12: k is B₂ / B₁ only; a rollout's steps are s.
    ("prompts=512 n=8 mini=128 b=4 gpus=64 epochs=2 vs n=16", "P = 512, n = 8, mini = 128, s = 8", "k = 8\n"),
    # 13: 7 parameters are surely 7B; 2.670 and 42 as numbers.
    ("8 64 4 4096 params=7 budget=2T", "params=7 sind 7 Parameter – meintest du params=7B?", "4,2 · 10¹"),
    # 15: DeepSeek extrapolated its own batch and learning rate, it did not choose 7B and 67B so.
    ("8 64 4 4096 params=7B budget=2T", "so hat auch DeepSeek Batch-Größe und Lernrate für 7B und 67B bestimmt", None),
    # 26: two subjects.
    ("8 64 B=2048 T=8Mi", "B= und T= lassen sich nicht kombinieren", "zusammen geht nicht"),
    # 27, 28
    ("8 64 4 4096 vs d=512", "Bei k ≥ 8 das Warmup anpassen", "verträgt die hochskalierte Lernrate"),
    ("8 64 4 4096 vs gpus=1024", "Nachher: abgeleitete Werte", "hergeleitet"),
    # 44: the unit after the number, the bracket after the unit.
    ("läufe", "236\u00a0Mrd. Parameter (21\u00a0Mrd. aktiv)", "aktiv) Parameter"),
    ("läufe gpt3-175b", "nach 4–12 Mrd. Tokens (je nach Modellgröße)", "(je nach Größe) Tokens"),
    ("läufe falcon-40b", "Hochlauf über 100\u00a0Mrd. Tokens (Startwert nicht angegeben)", "Anlauf"),
    # 45: a list, not an „oder“ chain; batch= is b or B, not the RL mini-batch.
    ("8 64 4 batch=8", "Meintest du b= (Micro-Batch je Gerät) oder B= (Ziel-Batch-Größe)?", "minibatch"),
    ("8 64 4 4096 vs llama2", "Meintest du llama2-7b, llama2-70b oder", "llama2-7b oder llama2-70b oder"),
    # 47: no backticks in a terminal heading.
    ("hilfe schlüssel", "Einordnung – Modellgröße N und Token-Budget D (budget=)", "`"),
]


@pytest.mark.parametrize(("command", "says", "not_any_more"), CASES)
def test_reviewed_wording(command: str, says: str, not_any_more: str | None) -> None:
    """Each reviewed sentence reads as the review asked."""
    text = shown(command)
    assert says in text
    if not_any_more:
        assert not_any_more not in text


def test_notifications_carry_no_code_marks() -> None:
    """Review row 46: a notification is plain text, Slack would show the backticks as they are."""
    from effbatch.bot.rendering.block_kit import message

    payload = message(answer_command("8 0 4", Visibility.IN_CHANNEL).document)
    assert "`" not in payload["text"]
    assert "z. B. 8, 4.096" in payload["text"]


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


# --- the second native review on checks (rows 31, 32, 36, 43), as the terminal shows a check ---------------

DATA = Path(__file__).resolve().parent / "data" / "configs"
#: verl's fixture 10, its lines 14 and 15 giving the world size together (trainer.n_gpus_per_node, trainer.nnodes).
VERL_10 = (DATA / "verl" / "10_refuse_sp_without_remove_padding.sh").read_text()


def checked(name: str, world: int, text: str | None = None) -> str:
    source = Source(name, text if text is not None else (DATA / name).read_text())
    return plain_text(
        check_answer(check_config([source], World(world, "--world-size")), Visibility.IN_CHANNEL).document
    )


def test_values_read_stand_as_the_file_writes_them() -> None:
    """Row 31: 32768 as in the JSON (searchable there), not 32.768; the answer's own numbers stay German."""
    config = '{"train_batch_size": 32768, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8}'
    text = checked("ds.json", 1024, config)
    assert "train_batch_size = 32768 (ds.json:1)" in text
    assert "effektive Batch-Größe 32.768 Sequenzen" in text


def test_a_long_place_keeps_its_file_name_and_lines() -> None:
    """Row 32: shortened at the front at a folder, the file's name and both lines kept („Zeilen 14 und 15“)."""
    text = checked("runs/experiments/2026/team-a/verl/grpo/10_refuse_sp_without_remove_padding.sh", 8, VERL_10)
    assert "world_size = 8 (…/2026/team-a/verl/grpo/10_refuse_sp_without_remove_padding.sh, Zeilen 14 und 15)" in text


def test_a_bare_assertion_is_quoted_as_one() -> None:
    """Row 36: „ohne Text“, then „Assertion in LitGPT: assert …“ – not „ohne Meldung. Meldung von LitGPT“."""
    # tests/test_check_rules.py's sample of litgpt/micro-batch-larger-than-per-device: 32 // 8 GPUs = 4 < 8
    config = "out_dir: out\ndevices: 8\ntrain:\n  max_seq_length: 512\n  global_batch_size: 32\n  micro_batch_size: 8\n"
    text = checked("l.yaml", 8, config)
    assert "(ein AssertionError ohne Text). Assertion in LitGPT: assert" in text


def test_a_rollouts_tokens_are_a_bound() -> None:
    """Row 43: with L = longest prompt + longest answer, T is a maximum, and the note says why."""
    text = checked("verl/01_plain_grpo.sh", 8)
    assert "Max. Tokens je Optimierer-Schritt (T):" in text
    assert "L ist die Höchstlänge aus Prompt und Antwort; echte Rollouts haben meist weniger Tokens." in text
    assert "Max. Prompt-Länge: 512" in text

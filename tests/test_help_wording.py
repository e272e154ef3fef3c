"""What the help, the App Home and the modal say, where a word was wrong: the texts Slack and the terminal show."""

from __future__ import annotations

import json

import pytest

from effbatch.bot.document import Visibility
from effbatch.bot.rendering import views
from effbatch.bot.rendering.help import help_answer
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.cli import main


def test_the_app_home_names_the_channel_profile() -> None:
    """The App Home's examples show the channel profile, as `hilfe` does."""
    home = json.dumps(views.home_view().to_dict(), ensure_ascii=False)
    assert "/effbatch cluster gpus=64 tp=8 gpu=h100" in home
    assert "das Channel-Profil" in home


def test_the_modal_says_no_choice_without_a_gender() -> None:
    """„– keine Angabe –“ fits the model and the GPU alike; the hint says what fits: the training."""
    view = json.dumps(views.form_view(Visibility.IN_CHANNEL, None, None).to_dict(), ensure_ascii=False)
    assert "– keine Angabe –" in view
    assert '"keins"' not in view
    assert "ob das Training hineinpasst und wie lange es dauert" in view


def test_the_keys_help_names_every_setting_in_german() -> None:
    """`hilfe schlüssel`: zero_init and tied with a German name, not the key again or a loan translation."""
    shown = plain_text(help_answer(Visibility.EPHEMERAL, keys=True).document, choices=False)
    assert "Modell direkt verteilt anlegen (DeepSpeed zero.Init): zero_init" in shown
    assert "Geteilte Embedding-Gewichte (tied)" in shown
    assert "zero_init: zero_init" not in shown
    assert "Gebundene Ein- und Ausgabe" not in shown


def test_the_gpu_option_compares_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """`check --help` and `hilfe prüfe`: the GPU's memory is compared with, not „held against“."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "GPU, mit deren Speicher der geschätzte Speicher je GPU verglichen wird" in " ".join(out.split())
    topic = plain_text(help_answer(Visibility.EPHEMERAL, topic="prüfe", command="effbatch").document, choices=False)
    assert "vergleicht ihn mit dem Speicher einer GPU" in topic
    assert "gegen eine GPU" not in topic

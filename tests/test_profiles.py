"""Channel profiles: ``/effbatch cluster …`` stored in a real database, and later answers in the channel taking
the profile's values as defaults, saying so – through the Bolt app, as Slack would receive it, on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from urllib.parse import urlencode

import pytest
from pydantic import SecretStr
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient

from effbatch.bot.operations.settings import Settings
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.storage.database import engine_for, migrate
from effbatch.bot.storage.setup import stores
from effbatch.core.check_command import is_check
from effbatch.core.profile import (
    ProfileError,
    ProfileProblemKind,
    SetProfile,
    may_take_a_profile,
    parse_profile_command,
    with_profile,
)

from slack_checks import all_text, assert_valid_message
from slack_signing import signed_headers

SECRET = "profile-secret"


def offline_authorize(**_: object) -> AuthorizeResult:
    return AuthorizeResult(enterprise_id=None, team_id="T0TEST", bot_token="xoxb-test", bot_user_id="U0BOT")


@pytest.fixture
def app(database_url: str) -> Iterator[App]:
    """The bot's app over a migrated database; nothing may reach the network (an unroutable Web API)."""
    engine = engine_for(database_url)
    migrate(engine)
    client = WebClient(base_url="http://127.0.0.1:9/api/")
    settings = Settings(slack_signing_secret=SecretStr(SECRET))
    yield create_app(settings, BotParts(client=client, authorize=offline_authorize, storage=stores(engine, None)))
    engine.dispose()


def say(app: App, text: str, channel: str = "C0PLAN", user: str = "U0ADA", team: str = "T0TEST") -> dict:
    """``/effbatch text`` typed by ``user`` in ``channel``; the acknowledgement's payload."""
    fields = {"command": "/effbatch", "text": text, "team_id": team, "channel_id": channel, "user_id": user}
    body = urlencode(fields)
    headers: dict[str, str | Sequence[str]] = {**signed_headers(SECRET, body)}
    response = app.dispatch(BoltRequest(body=body, headers=headers))
    assert response.status == 200
    payload = json.loads(response.body)
    assert_valid_message(payload)
    return payload


def test_a_profile_is_used_in_later_answers_and_said_so(app: App) -> None:
    """The documented example: set, then a command without GPUs is computed with the profile's 64 GPUs and TP 8
    (d = 64 / 8 = 8, B = 8 · 8 · 4 = 256), opened by the note naming the profile, who set it and when."""
    stored = say(app, "cluster gpus=64 tp=8 gpu=h100")
    assert stored["response_type"] == "in_channel"
    assert "Channel-Profil gespeichert: 64 GPUs, TP 8 und GPU-Modell H100 SXM" in stored["text"]
    assert "Gesetzt von <@U0ADA> am" in all_text(stored)
    answer = say(app, "b=8 a=4 L=4096", user="U0BOB")
    note = answer["blocks"][1]["elements"][0]["text"]
    assert note.startswith("Aus dem Channel-Profil: 64 GPUs, TP 8 und GPU-Modell H100 SXM – gesetzt von <@U0ADA> am ")
    assert "256 Sequenzen" in answer["text"]  # B = 8 · (64 / 8) · 4
    assert "1.048.576" in all_text(answer)  # T = 256 · 4.096


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 64 4", "2.048 Sequenzen"),  # d given (positionally): the command's own cluster, B = 8 · 64 · 4
        ("b=8 a=4 gpus=16", "512 Sequenzen"),  # GPUs given: its own, d = 16 (no TP from the profile), B = 8 · 16 · 4
        ("b=8 a=4 tp=2", "1.024 Sequenzen"),  # its own TP: d = 64 / 2 = 32, B = 8 · 32 · 4
    ],
)
def test_what_a_command_says_itself_wins(app: App, text: str, expected: str) -> None:
    """A command that names d or the GPUs describes its own cluster; a key it gives overrides the profile's."""
    say(app, "cluster gpus=64 tp=8")
    answer = say(app, text)
    assert expected in answer["text"]
    uses_profile = "Aus dem Channel-Profil" in all_text(answer)
    assert uses_profile == text.endswith("tp=2")


def test_the_profile_belongs_to_its_channel_and_workspace(app: App) -> None:
    """Another channel, or the same channel id in another workspace, has no profile."""
    say(app, "cluster gpus=64 tp=8")
    for channel, team in (("C0OTHER", "T0TEST"), ("C0PLAN", "T0OTHER")):
        answer = say(app, "b=8 a=4", channel=channel, team=team)
        assert "Aus dem Channel-Profil" not in all_text(answer)
        assert answer["response_type"] == "ephemeral"  # d is missing: an error, only to the caller


def test_show_and_delete(app: App) -> None:
    """``cluster`` shows the profile (to the caller), ``cluster löschen`` removes it for everyone."""
    assert "Dieser Channel hat kein Channel-Profil" in all_text(say(app, "cluster"))
    say(app, "cluster nodes=8 gpus_per_node=8 pp=4", user="U0ADA")
    shown = say(app, "cluster", user="U0BOB")
    assert shown["response_type"] == "ephemeral"
    assert "Channel-Profil: 8 Knoten, 8 GPUs je Knoten und PP 4" in shown["text"]
    assert "Gesetzt von <@U0ADA>" in all_text(shown)
    assert "Aus dem Channel-Profil: 64 GPUs und PP 4" in all_text(say(app, "b=1 a=16"))  # 8 × 8 GPUs
    deleted = say(app, "cluster löschen")
    assert deleted["response_type"] == "in_channel"
    assert "Channel-Profil gelöscht" in deleted["text"]
    assert "Aus dem Channel-Profil" not in all_text(say(app, "b=1 a=16 d=8"))
    assert "nichts zu löschen" in all_text(say(app, "cluster löschen"))


def test_a_check_takes_the_profiles_gpus_as_its_world_size(app: App) -> None:
    """``prüfe`` with a DeepSpeed config that leaves the world size open: the profile's 64 GPUs fill it.
    train_batch_size 512 = micro 4 × accumulation 2 × d 64 (DeepSpeed's own rule, runtime/config.py)."""
    say(app, "cluster gpus=64")
    config = '{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2, "train_batch_size": 512}'
    answer = say(app, f"prüfe\n```{config}```")
    text = all_text(answer)
    assert "Aus dem Channel-Profil: 64 GPUs" in text
    assert "512" in text
    assert "`world_size = 64` (Channel-Profil)" in text  # from the profile, not as if typed as gpus=64
    assert "(gpus=64)" not in text


def test_a_profile_names_its_accelerator_as_the_calculator_does(app: App) -> None:
    """The GPU model by its name (H100 SXM, not the key h100); a TPU as the accelerator, not as a GPU model; the
    title says „Channel-Profil“ once."""
    say(app, "cluster gpus=64 tp=8 gpu=h100")
    shown = all_text(say(app, "cluster"))
    assert "GPU-Modell H100 SXM" in shown
    assert "*Channel-Profil*" in shown or "Channel-Profil\n" in shown
    assert "Channel-Profil dieses Channels" not in shown
    assert "Nennt ein Befehl d oder die GPUs selbst, gelten seine Werte" in shown
    stored = say(app, "cluster nodes=8 gpus_per_node=8 pp=4 gpu=tpu-v5e")
    assert "Beschleuniger TPU v5e" in stored["text"]
    assert "GPU-Modell tpu-v5e" not in all_text(stored)


def test_a_refused_profile_lists_every_problem(app: App) -> None:
    """Unknown keys, unreadable numbers and a TP that does not divide the GPUs, one bullet each, only to the caller."""
    answer = say(app, "cluster gpus=64 tp=3 foo=1 pp=acht")
    text = all_text(answer)
    assert answer["response_type"] == "ephemeral"
    assert "foo gehört nicht in ein Channel-Profil" in text
    assert "„pp=acht“: pp braucht eine ganze Zahl von 1 bis 4.096" in text
    assert "Dieser Channel hat kein Channel-Profil" in all_text(say(app, "cluster"))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("cluster gpu=h999", "„gpu=h999“: dieses GPU-Modell kenne ich nicht. Möglich: h100, h200"),  # names the GPUs
        ("cluster wer=1", "„wer=1“: wer gehört nicht in ein Channel-Profil. Möglich sind gpus, tp"),  # the keys
        ("cluster tp=0", "„tp=0“: tp braucht eine ganze Zahl von 1 bis 4.096"),
    ],
)
def test_a_refused_profile_says_what_was_typed(app: App, text: str, said: str) -> None:
    """A typo in a profile command is answered with what was wrong in it, only to the caller, and nothing is stored
    (a GPU's list of known models once met the keys' list in one template and ended in the generic error)."""
    shown = all_text(say(app, text))
    assert said in shown
    assert "nicht an deiner Eingabe" not in shown
    assert "Dieser Channel hat kein Channel-Profil" in all_text(say(app, "cluster"))


def test_user_text_in_a_profile_cannot_mention_anyone(app: App) -> None:
    """Only the setter's checked user id becomes a mention; anything else typed is escaped."""
    say(app, "cluster gpus=8 gpu=h100", user="<!channel>")
    shown = all_text(say(app, "cluster"))
    assert "<!channel>" not in shown
    assert "<@USLACKBOT>" in shown


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("cluster gpus=64 nodes=4 gpus_per_node=8", [ProfileProblemKind.GPUS_CONFLICT]),  # 4 × 8 = 32 ≠ 64
        ("cluster nodes=4", [ProfileProblemKind.NODES_WITHOUT_PER_NODE]),
        ("cluster gpus=64 gpus=32", [ProfileProblemKind.DUPLICATE]),
        ("cluster tp", [ProfileProblemKind.NOT_A_SETTING]),
        ("cluster gpu=h100;rm", [ProfileProblemKind.NOT_A_MODEL]),  # not one of core/memory/gpus.json's
        ("cluster gpu=8", [ProfileProblemKind.NOT_A_MODEL]),  # gpu= is the model in a profile, gpus= the count
        ("cluster sp=5000", [ProfileProblemKind.NOT_A_COUNT]),  # above the calculator's 4.096
    ],
)
def test_profile_commands_refused(text: str, problems: list[ProfileProblemKind]) -> None:
    """Each way a profile cannot be stored, by its machine-readable kind."""
    with pytest.raises(ProfileError) as raised:
        parse_profile_command(text)
    assert [problem.kind for problem in raised.value.problems] == problems


def test_aliases_are_stored_under_the_calculators_keys() -> None:
    """``world_size=``, ``tensor=``, ``knoten=`` … stored as gpus, tp, nodes; counts as whole numbers."""
    parsed = parse_profile_command("cluster world_size=1k tensor=8 knoten=125 gpus_per_node=8 accelerator=H100-SXM")
    settings = (("gpus", "1000"), ("nodes", "125"), ("gpus_per_node", "8"), ("tp", "8"), ("gpu", "h100"))
    assert parsed == SetProfile(settings)


@pytest.mark.parametrize(
    ("text", "merged"),
    [
        ("b=8 a=4 vs a=8", "b=8 a=4 gpus=64 tp=8 gpu=h100 vs a=8"),  # before vs: the second setup inherits them
        ("8 a=4 privat", "8 a=4 privat gpus=64 tp=8 gpu=h100"),
        ("8 a=4 gpu=b200", "8 a=4 gpu=b200 gpus=64 tp=8"),  # its own GPU model wins
        ("8 a=4 accelerator=b200", "8 a=4 accelerator=b200 gpus=64 tp=8"),
        ("hilfe", "hilfe"),
        ("läufe llama", "läufe llama"),
        ("8 64 4 4096", "8 64 4 4096"),
    ],
)
def test_where_defaults_go(text: str, merged: str) -> None:
    """Defaults close the first setup (named values after positional ones, as the parser wants); help and the
    list of runs take none."""
    assert with_profile(text, {"gpus": "64", "tp": "8", "gpu": "h100"}).text == merged


PROFILES = [
    {"gpus": "64", "tp": "8", "gpu": "h100"},
    {"nodes": "8", "gpus_per_node": "8", "pp": "4"},
    {"gpu": "b200"},
    {"cp": "2", "sp": "2", "gpus": "16"},
]


@pytest.mark.parametrize(
    ("text", "may"),
    [
        ("8 64 4 4096", False),  # d given: the benchmark's command, answered without a database round trip
        ("b=8 d=64 a=4 L=4096 vs a=8", False),
        ("gpus=64 tp=8 b=1 a=16", False),
        ("hilfe", False),
        ("läufe llama", False),
        ("cluster gpus=8", False),
        ("b=8 a=4 L=4096", True),
        ("llama3.1-8b b=2 a=4 L=8k", True),
        ("8 a=4 gpu=b200", True),
        ("prüfe --world-size 8\n{}", True),
        ("params=7B budget=2T L=4096", False),  # the laws' question: no cluster in it to fill in
    ],
)
def test_a_profile_is_looked_up_only_where_one_could_change_the_answer(text: str, may: bool) -> None:
    """``may_take_a_profile`` says whether any profile could add a value; where it says no, none does."""
    assert may_take_a_profile(text) is may
    if not may:
        assert all(not with_profile(text, profile).applied for profile in PROFILES)
    else:
        assert is_check(text) or any(with_profile(text, profile).applied for profile in PROFILES)


def test_the_profiles_gpu_model_gives_memory_per_gpu(app: App) -> None:
    """With a model in the command, the profile's GPU (H100) gives the memory per GPU: the same section, number for
    number, as the calculator's answer with gpus=64 tp=8 gpu=h100 typed out."""
    say(app, "cluster gpus=64 tp=8 gpu=h100")
    answer = all_text(say(app, "b=1 a=4 L=4096 modell=llama3.1-8b"))
    typed = all_text(say(app, "b=1 a=4 L=4096 modell=llama3.1-8b gpus=64 tp=8 gpu=h100", channel="C0OTHER"))
    assert "Speicher je GPU" in answer
    assert answer.split("Speicher je GPU", 1)[1] == typed.split("Speicher je GPU", 1)[1]


@pytest.mark.parametrize("text", ["params=7B budget=2T L=4096", "params=70B budget=15T privat"])
def test_the_laws_question_stays_the_laws_question(app: App, text: str) -> None:
    """A profile only fills in what a command leaves open: N and D (and L) in a channel with a profile are answered
    with the batch-size laws, word for word as in a channel without one – no memory per GPU, no profile note."""
    say(app, "cluster gpus=64 tp=8 gpu=h100")
    answer = say(app, text)
    elsewhere = say(app, text, channel="C0OTHER")
    assert answer["text"].startswith("Step Law und DeepSeek LLM: ")
    assert "Batch-Größe nach den Gesetzen" in all_text(answer)
    assert "Speicher je GPU" not in all_text(answer)
    assert "Aus dem Channel-Profil" not in all_text(answer)
    assert all_text(answer) == all_text(elsewhere)

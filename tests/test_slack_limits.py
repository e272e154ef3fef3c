"""Every kind of answer, with hostile sizes, within Slack's limits: no answer is ever lost.

Slack refuses a message whose section holds more than 3.000 characters (slack_sdk raises before sending, the user
got the internal-error text or nothing); each answer here is laid out for Slack and checked against every limit
``slack_checks`` names, and against what the user must still be told.
"""

from __future__ import annotations

import pytest
from hostile_sizes import COMMANDS

from effbatch.bot.document import (
    AnswerKind,
    Bullet,
    Choice,
    Columns,
    Document,
    Field,
    Fields,
    Formula,
    Note,
    Section,
    Visibility,
)
from effbatch.bot.rendering import views
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.block_kit import message, replacing
from effbatch.bot.rendering.grammar import singular_after_one
from effbatch.core import PlanRequest

from slack_checks import MAX_BLOCKS, all_text, assert_valid_message, assert_valid_view


@pytest.mark.parametrize("case", COMMANDS)
def test_every_answer_kind_fits_slack(case: str) -> None:
    """Calculator, planning, RL, guidance, vs, runs, help, errors and checks, each as large as it gets."""
    answered = answer_command(COMMANDS[case], Visibility.IN_CHANNEL)
    payload = message(answered.document)
    assert_valid_message(payload)
    assert_valid_message({**replacing(answered.document), "response_type": "in_channel"})
    header = payload["blocks"][0]["text"]["text"]
    assert header == singular_after_one(answered.document.title) or header.endswith("…")


def test_the_issues_nanotron_yaml_names_three_keys_and_counts_the_rest() -> None:
    """110 unknown keys: Nanotron's own message, quoted, names three, „und 106 weitere“, and the last (its tail)."""
    answered = answer_command(COMMANDS["a check of the issue's Nanotron YAML"], Visibility.IN_CHANNEL)
    assert answered.kind is AnswerKind.CHECK
    text = all_text(message(answered.document))
    assert "Nanotron bricht ab: parallelism.unknown_key_number_000 gibt es nicht" in text
    assert (
        'can not match "unknown_key_number_000", "unknown_key_number_001", "unknown_key_number_002" … und 106 '
        'weitere … "unknown_key_number_109" to any data class field'
    ) in text
    assert "unknown_key_number_050" not in text


def test_a_list_in_a_rules_context_is_shortened_where_it_is_worded() -> None:
    """TrlParser's 301 unknown arguments: the finding names three keys, „und 298 weitere“; the quote shortens too."""
    answered = answer_command(COMMANDS["a check refusing 300 arguments"], Visibility.IN_CHANNEL)
    text = all_text(message(answered.document))
    assert "TRL bricht ab: accelerate_config, per_device_batch_size_0, per_device_batch_size_1 und 298 weitere" in text
    assert "['--accelerate_config', 'zero3', '--per_device_batch_size_0' … und 600 weitere …" in text


def test_three_hundred_code_blocks_name_three() -> None:
    """The refusal says where it looked: three code blocks and the count of the rest."""
    answered = answer_command(COMMANDS["a check of 300 code blocks"], Visibility.IN_CHANNEL)
    assert "In Codeblock 1, Codeblock 2, Codeblock 3 und 297 weitere" in all_text(message(answered.document))


def test_stray_values_are_counted_not_listed() -> None:
    """`b=8 1 1 1 …`: three quoted, the rest counted – one readable bullet."""
    answered = answer_command(COMMANDS["a thousand stray values"], Visibility.EPHEMERAL)
    text = all_text(message(answered.document))
    assert "„1“, „1“, „1“ und 994 weitere stehen ohne Namen hinter einem benannten Wert" in text


#: A document whose every part outgrows its block: lines, fields, columns, notes, titles and buttons.
HUGE = Document(
    title="T" * 400,
    summary="S" * 50_000,
    visibility=Visibility.IN_CHANNEL,
    parts=(
        Fields(tuple(Field("n" * 900, "v" * 900, "m" * 900) for _ in range(25))),
        Section(title="t" * 400, lines=tuple(Bullet("<&>" * 500) for _ in range(40))),
        Section(lines=(Formula("f" * 5000, "r" * 5000), "&" * 4000)),
        Columns((Section(title="a", lines=("x" * 1500,) * 3), Section(title="b", lines=("y" * 3000,)))),
        *(Note("n" * 4000) for _ in range(60)),
    ),
    choices=(
        Choice("c" * 200, "whatif", "v"),
        Choice("kept", "whatif", "v" * 2000),
        Choice("left out", "whatif", "v" * 2001),
    ),
)


def test_a_document_larger_than_every_limit_is_split_cut_and_counted() -> None:
    """Sections split at line ends, fields ten a section, texts cut, 50 blocks with the rest counted."""
    payload = message(HUGE)
    assert_valid_message(payload)
    assert len(payload["blocks"]) == MAX_BLOCKS
    assert "weitere Abschnitte" in all_text(payload)
    sections = [b["text"]["text"] for b in payload["blocks"] if b["type"] == "section" and "text" in b]
    bullets = [text for text in sections if "&lt;&amp;&gt;" in text]
    assert len(bullets) > 1  # 40 bullets of 1.500 escaped characters: several sections, none cut
    assert sum(text.count("•") for text in bullets) == 40
    buttons = next(b for b in payload["blocks"] if b["type"] == "actions")["elements"]
    assert [len(b["value"]) for b in buttons] == [1, 2000]  # the value of 2.001 characters cannot work: left out


def test_views_with_hostile_content_fit() -> None:
    """The form at every bound, an answer in a modal (100 blocks), the App Home, the world-size form."""
    at_bounds = PlanRequest(
        micro_batch=65536, data_parallel=1048576, accumulation=65536, seq_len=16777216, budget=10**18, tp=4096
    )
    for view in (
        views.form_view(Visibility.IN_CHANNEL, "https://hooks.slack.com/" + "x" * 1000, at_bounds),
        views.result_view(HUGE, warning="w" * 5000),
        views.result_view(
            answer_command(COMMANDS["a check of the issue's Nanotron YAML"], Visibility.IN_CHANNEL).document
        ),
        views.home_view(),
        views.world_form("Megatron-Bridge", "z1:" + "A" * 2990, (4096, 4096)),
        views.damaged_view(),
    ):
        assert_valid_view(view.to_dict())

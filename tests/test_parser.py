"""The command grammar of the /effbatch issue, one row per rule."""

from __future__ import annotations

import pytest

from effbatch.core import (
    Argument,
    GuidanceCommand,
    HelpRequest,
    InputError,
    PlanCommand,
    PlanRequest,
    ProblemKind,
    RunComparisonCommand,
    RunsRequest,
    parse_command,
)

WORKED = PlanRequest(micro_batch=8, data_parallel=64, accumulation=4, seq_len=4096)
NO_L = PlanRequest(micro_batch=8, data_parallel=64, accumulation=4)


@pytest.mark.parametrize(
    ("text", "setup", "private"),
    [
        ("8 64 4 4096", WORKED, False),  # the worked example, positional
        ("8 64 4", NO_L, False),  # L is optional
        ("b=8 d=64 a=4 L=4096", WORKED, False),  # named
        ("L=4096 a=4 d=64 b=8", WORKED, False),  # named, any order
        ("8 64 a=4 L=4096", WORKED, False),  # named after positionals
        ("8 64 4 l=4096", WORKED, False),  # keys case-insensitive: l is L
        ("micro=8 geraete=64 akku=4 seq=4096", WORKED, False),  # German aliases
        ("MICRO=8 Geräte=64 gas=4 len=4k", WORKED, False),  # mixed case, umlaut, binary k for L
        ("Gera\u0308te=64 b=8 a=4 L=4096", WORKED, False),  # decomposed umlaut (NFD) as some keyboards send
        ("mbs=8 dp=64 accum=4 seq_len=4.096", WORKED, False),  # English aliases, German separator
        ("8 64 4 4096 privat", WORKED, True),  # privat anywhere
        ("privat 8 64 4 4096", WORKED, True),
        ("8 64 4 4096 PRIVAT", WORKED, True),
        ("8, 64, 4, 4096", WORKED, False),  # commas between values, as in a sentence
        ("8 × 64 × 4 4096", WORKED, False),  # multiplication signs between factors
        ("  8\t64\u00a04   4096 ", WORKED, False),  # tabs, no-break space, extra spaces
        ("b = 8 d = 64 a = 4 L = 4096", WORKED, False),  # spaces around =
        ("8 64 4 seq=4k", WORKED, False),
        ("8 64 8 4096", WORKED.model_copy(update={"accumulation": 8}), False),  # doubling a
    ],
)
def test_valid_commands(text: str, setup: PlanRequest, private: bool) -> None:
    """Each accepted spelling yields the same validated setup."""
    assert parse_command(text) == PlanCommand(request=setup, private=private)


@pytest.mark.parametrize("text", ["hilfe", "help", "?", "HILFE", "8 64 hilfe", "--help"])
def test_help_words(text: str) -> None:
    """A help word anywhere asks for the help text."""
    assert parse_command(text) == HelpRequest()


def problems(text: str) -> list[tuple[ProblemKind, str | None, str | None]]:
    with pytest.raises(InputError) as raised:
        parse_command(text)
    return [(p.kind, p.argument, p.text) for p in raised.value.problems]


MB, DP, AC, SL = Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION, Argument.SEQ_LEN


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [(ProblemKind.MISSING_VALUES, None, None)]),  # nothing given
        ("8 64", [(ProblemKind.MISSING_VALUES, None, None)]),  # fewer than three values
        ("8,5 64 4", [(ProblemKind.NOT_WHOLE, MB, "8,5")]),
        ("8 -8 4", [(ProblemKind.NOT_POSITIVE, DP, "-8")]),
        ("8 64 0", [(ProblemKind.NOT_POSITIVE, AC, "0")]),
        ("8 64 4 4.0965e3", [(ProblemKind.NOT_WHOLE, SL, "4.0965e3")]),  # 4.096,5: e is ×10, the point a decimal
        ("8 64 4 4.096e0", [(ProblemKind.NOT_WHOLE, SL, "4.096e0")]),
        ("acht 64 4", [(ProblemKind.NOT_A_NUMBER, MB, "acht")]),
        ("8 64 4 4096 5", [(ProblemKind.TOO_MANY_VALUES, None, "5")]),
        ("b=8 64 4", [(ProblemKind.POSITIONAL_AFTER_NAMED, None, "64")]),  # the stray values explain the gap
        ("8 64 4 b=16", [(ProblemKind.DUPLICATE, MB, "16")]),  # a value given twice
        ("d=64 dp=32 8", [(ProblemKind.DUPLICATE, DP, "32"), (ProblemKind.POSITIONAL_AFTER_NAMED, None, "8")]),
        ("8 64 4 t=4M", [(ProblemKind.UNKNOWN_KEY, None, "t=4M")]),  # only capital T is the token target
        ("8 64 4 x=1", [(ProblemKind.UNKNOWN_KEY, None, "x=1")]),
        ("8 64 4 L=", [(ProblemKind.EMPTY_VALUE, SL, "L=")]),
        ("65537 64 4", [(ProblemKind.TOO_LARGE, MB, "65537")]),  # one over 2¹⁶
        ("8 2M 4", [(ProblemKind.TOO_LARGE, DP, "2M")]),  # over 2²⁰ replicas
        ("8 64 4 32Mi", [(ProblemKind.TOO_LARGE, SL, "32Mi")]),  # over 2²⁴ tokens
        ("8 64 4 " + "9" * 1900, [(ProblemKind.TOO_LONG, SL, "9" * 1900)]),  # under the 2.000-character cap
        ("8 64 4 " + "9" * 6000, [(ProblemKind.TEXT_TOO_LONG, None, None)]),  # the whole text over the cap
        ("<!channel> 64 4", [(ProblemKind.NOT_A_NUMBER, MB, "<!channel>")]),
        # a decimal comma before three digits in a whole-number key, every key alike
        ("8 2,000 4 4096", [(ProblemKind.THOUSANDS_COMMA, DP, "2,000")]),  # read as d = 2 before
        ("8 64 4 L=1,000", [(ProblemKind.THOUSANDS_COMMA, SL, "1,000")]),
        ("8 64 4 4096 vs d=2,000", [(ProblemKind.THOUSANDS_COMMA, DP, "2,000")]),
        ("prompts=1,000 n=8 mini=125 b=4 gpus=64", [(ProblemKind.THOUSANDS_COMMA, Argument.PROMPTS, "1,000")]),
        ("8 64 4 4096 params=7B budget=1,000T", [(ProblemKind.THOUSANDS_COMMA, Argument.BUDGET, "1,000T")]),
        ("8 64 4 4096 params=7,000B budget=2T", [(ProblemKind.THOUSANDS_COMMA, Argument.PARAMS, "7,000B")]),
        ("8 64 4 4096 act=1,000GiB", [(ProblemKind.THOUSANDS_COMMA, Argument.ACTIVATION, "1,000GiB")]),
        ("8 64 4 4096 gpus=1,024 tp=8", [(ProblemKind.THOUSANDS_COMMA, Argument.GPUS, "1,024")]),
        ("8 64 4 vs " + "ä" * 40, [(ProblemKind.NOT_A_NUMBER, MB, "ä" * 40)]),  # was "too many digits"
        ("8 64 4 1e-3", [(ProblemKind.NOT_WHOLE, SL, "1e-3")]),
    ],
)
def test_refused_commands(text: str, expected: list[tuple[ProblemKind, str | None, str | None]]) -> None:
    """Every problem is reported, naming the argument and quoting the text as typed."""
    assert problems(text) == expected


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("1e3 64 4 4096", "micro_batch", 1000),  # whole: accepted for b, d, a and L too
        ("8 64 4 4.096e3", "seq_len", 4096),
        ("8 64 4 4096 params=7e9 budget=2e12", "params", 7 * 10**9),  # the refused newcomer command
        ("8 64 4 4096 params=7e9 budget=2e12", "budget", 2 * 10**12),
        ("8 64 4 4096 params=1.5e9 budget=2T", "params", 1_500_000_000),
        ("8 64 4 4096 act=1e9B", "activation_per_sample", None),  # an exponent and a unit: refused below
    ],
)
def test_exponent_notation_is_read_where_a_number_is(text: str, field: str, value: int | None) -> None:
    """`7e9`, `2e12`, `1.5e9` wherever a count is accepted; for b, d, a and L only when whole."""
    if value is None:
        with pytest.raises(InputError):
            parse_command(text)
        return
    parsed = parse_command(text)
    assert isinstance(parsed, PlanCommand)
    assert getattr(parsed.request, field) == value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("params=7B budget=2T", GuidanceCommand(params=7 * 10**9, budget=2 * 10**12)),  # the question
        ("params=7e9 budget=2e12", GuidanceCommand(params=7 * 10**9, budget=2 * 10**12)),
        ("budget=2T params=7B L=4096", GuidanceCommand(params=7 * 10**9, budget=2 * 10**12, seq_len=4096)),
        ("params=7B budget=2T L=4k privat", GuidanceCommand(7 * 10**9, 2 * 10**12, seq_len=4096, private=True)),
    ],
)
def test_params_and_budget_alone_ask_the_laws(text: str, expected: GuidanceCommand) -> None:
    """N and D without b, d, a: the question „what batch suits a 7B model on 2T tokens?“, answered by the laws."""
    assert parse_command(text) == expected


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("budget=2T L=4096", ProblemKind.GUIDANCE_INCOMPLETE),  # D without N: the laws need both
        ("budget=2T", ProblemKind.GUIDANCE_INCOMPLETE),
    ],
)
def test_guidance_alone_needs_both(text: str, kind: ProblemKind) -> None:
    """Only N and D (and L) make the laws' question; anything of a setup asks for the setup."""
    with pytest.raises(InputError) as raised:
        parse_command(text)
    assert kind in [p.kind for p in raised.value.problems]


@pytest.mark.parametrize("text", ["params=7B budget=2T gpus=64", "params=7B budget=2T gpu=h100", "params=7B"])
def test_more_than_n_and_d_is_no_laws_question(text: str) -> None:
    """A setup begun, a memory key, or N alone: a memory question, not the laws' range."""
    assert isinstance(parse_command(text), PlanCommand)


def test_missing_names_what_is_missing() -> None:
    """Fewer than three values: the problem lists exactly the missing arguments."""
    with pytest.raises(InputError) as raised:
        parse_command("8")
    assert raised.value.problems[0].ctx == {"missing": [Argument.DATA_PARALLEL, Argument.ACCUMULATION]}


def test_unknown_key_suggests_close_keys() -> None:
    """A typo in a key comes with the nearest known keys."""
    with pytest.raises(InputError) as raised:
        parse_command("8 64 4 seqq=4096")
    assert "seq" in raised.value.problems[0].ctx["suggestions"]


def test_duplicate_quotes_both_values() -> None:
    """A value given twice names the first value as well."""
    with pytest.raises(InputError) as raised:
        parse_command("8 64 4 a=8")
    assert raised.value.problems[0].ctx == {"first": "4", "first_origin": 3, "second_origin": "a=8"}


def test_too_large_carries_the_bound() -> None:
    """The upper bound comes from the model, through pydantic's machine-readable ctx."""
    with pytest.raises(InputError) as raised:
        parse_command("8 64 65537")
    assert raised.value.problems[0].ctx == {"le": 65536}


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("8 64 4 4096 params=7B", 7 * 10**9),  # B after a number: the English billion, as for tokens
        ("8 64 4 4096 modellgröße=7Mrd", 7 * 10**9),  # the glossary's German name, German Milliarde
        ("8 64 4 4096 Modellgroesse=1,7B", 1_700 * 10**6),  # ASCII spelling, decimal comma that ends whole
        ("8 64 4 4096 parameter=135M", 135 * 10**6),
    ],
)
def test_params_is_n(text: str, params: int) -> None:
    """params= (N for the batch-size laws) reads counts as token counts are read."""
    parsed = parse_command(text)
    assert isinstance(parsed, PlanCommand)
    assert parsed.request.params == params


@pytest.mark.parametrize(
    ("text", "query", "private"),
    [
        ("läufe", None, False),
        ("laeufe llama", "llama", False),
        ("runs privat", None, True),
        ("Läufe DeepSeek", "DeepSeek", False),
    ],
)
def test_runs_word(text: str, query: str | None, private: bool) -> None:
    """läufe (laeufe, runs) as the first word lists published runs, an optional word filters them."""
    assert parse_command(text) == RunsRequest(query=query, private=private)


def test_vs_a_published_run() -> None:
    """8 64 4 4096 vs llama2-7b lr=3e-4: the second setup is the run; lr= may follow its name."""
    parsed = parse_command("8 64 4 4096 vs Llama-2-7B lr=3e-4")
    assert isinstance(parsed, RunComparisonCommand)
    assert (parsed.before, parsed.run.name, parsed.lr) == (WORKED, "llama2-7b", 3e-4)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("8 64 4 4096 vs llama9", ProblemKind.UNKNOWN_RUN),  # letters with digits: meant as a run
        ("8 64 4 4096 vs pythia", ProblemKind.UNKNOWN_RUN),  # a family, not one run
        ("8 64 4 4096 vs llama2-7b a=8", ProblemKind.RUN_WITH_VALUES),  # a run's batch is fixed
        ("8 64 4 4096 vs llama2-7b llama2-13b", ProblemKind.RUN_WITH_VALUES),
        ("8 64 vs llama2-7b", ProblemKind.MISSING_VALUES),  # the setup before vs still needs b, d, a
    ],
)
def test_vs_a_run_refused(text: str, kind: ProblemKind) -> None:
    """Mistakes around a published run are named, on the side they belong to."""
    with pytest.raises(InputError) as raised:
        parse_command(text)
    assert kind in [p.kind for p in raised.value.problems]


@pytest.mark.parametrize(
    ("text", "etp"),
    [
        ("mixtral-8x7b gpus=16 tp=4 ep=8 etp=1", 1),
        ("mixtral-8x7b gpus=16 tp=4 ep=8 expert_tensor_parallel_size=2", 2),  # Megatron-LM's flag
        ("mixtral-8x7b gpus=16 tp=4 ep=8 expert-tensor-parallel=1", 1),
        ("mixtral-8x7b gpus=16 tp=4 ep=8", None),  # not given: the memory model takes TP, as Megatron does
    ],
)
def test_expert_tensor_parallelism_is_read(text: str, etp: int | None) -> None:
    """``etp=`` (Megatron's ``--expert-tensor-parallel-size``) is read with its spellings as the experts' TP."""
    command = parse_command(text)
    assert isinstance(command, PlanCommand)
    assert command.request.training is not None
    assert command.request.training.etp == etp


def test_etp_has_a_bound() -> None:
    """An extra digit in ``etp=`` is caught like every degree's."""
    with pytest.raises(InputError) as raised:
        parse_command("mixtral-8x7b gpus=16 ep=8 etp=40960")
    assert raised.value.problems[0].ctx == {"le": 4096}

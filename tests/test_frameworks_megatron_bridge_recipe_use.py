"""NeMo 2 library recipes used in a script (``recipe = llm.llama3_8b.pretrain_recipe(…)``, then
``recipe.data.global_batch_size = …``, then ``run.run(recipe)``): the script's assignments, the call's keywords, else
the recipe's own defaults as NVIDIA/NeMo 8cfedd72 writes them (``nemo/collections/llm/recipes/<model>.py``:
``trainer()``'s parameters and ``run.Config(MockDataModule, …)`` of ``pretrain_recipe()``), then megatron-core's
arithmetic: d = world / (TP · PP · CP), a = B / (b · d), and ``initialize_model_parallel``'s refusal of a virtual
pipeline with PP 1.
"""

from __future__ import annotations

import pytest

from effbatch.core.configs import Check, Source, World, check_config

INTERLEAVED = "pipeline-model-parallel size should be greater than 1 with interleaved schedule"
UNKNOWN = "megatron_bridge/nemo2-recipe-defaults-unknown"


def script(call: str, *assignments: str) -> str:
    """A user's script in the shape of NVIDIA's NeMo 2 quickstart: the recipe, its changes, ``run.run``."""
    changes = "".join(f"    recipe.{line}\n" for line in assignments)
    return (
        "import nemo_run as run\nfrom nemo.collections import llm\n\n\ndef configure():\n"
        f"    recipe = llm.{call}\n{changes}    return recipe\n\n\n"
        "if __name__ == '__main__':\n    run.run(configure(), executor=run.LocalExecutor())\n"
    )


def checked(text: str, world: int | None = None) -> Check:
    given = World(world, f"--world-size {world}") if world else None
    return check_config([Source("pretrain.py", text)], given)


def numbers(check: Check) -> tuple[int | None, ...]:
    world = check.world.size if check.world else None
    return (world, check.data_parallel, check.micro_batch, check.accumulation, check.global_batch, check.seq_len)


# (recipe call, assignments, GPUs given, (world, d, b, a, B, L), findings with the framework's own message)
CASES = [
    # llama3_8b.py:60-68 trainer(): TP 1, PP 1, CP 2; :190 MockDataModule 8192 × 512, b 1. 2 × 8 GPUs: d = 8, a = 64.
    (
        "llama3_8b.pretrain_recipe(name='a', num_nodes=2, num_gpus_per_node=8)",
        (),
        None,
        (16, 8, 1, 64, 512, 8192),
        {},
    ),
    # llama3_70b.py:61-69: TP 4, PP 4, CP 2 (VPP 5 with PP 4 is fine) on 4 × 8 = 32: d = 1, a = 512.
    ("llama3_70b.pretrain_recipe(num_nodes=4)", (), None, (32, 1, 1, 512, 512, 8192), {}),
    # The user's change of the corpus (Vivicai1005/nemo_training): TP 2 · PP 4 on 8, B 16, b 1, L 4096: a = 16.
    (
        "llama3_70b.pretrain_recipe(num_nodes=1, num_gpus_per_node=8)",
        (
            "trainer.strategy.tensor_model_parallel_size = 2",
            "trainer.strategy.context_parallel_size = 1",
            "trainer.strategy.virtual_pipeline_model_parallel_size = None",
            "data.global_batch_size = 16",
            "data.seq_length = 4096",
        ),
        None,
        (8, 1, 1, 16, 16, 4096),
        {},
    ),
    # PP 1 on llama3_70b keeps its VPP 5 (llama3_70b.py:61-69): megatron-core refuses it after the world check.
    (
        "llama3_70b.pretrain_recipe()",
        ("trainer.strategy.pipeline_model_parallel_size = 1",),
        None,
        (8, None, 1, None, None, 8192),
        {"megatron_bridge/interleaved-needs-pipeline": INTERLEAVED},
    ),
    # qwen2_7b.py:54-73 takes the parallelism and the batch as keywords (defaults TP 2, B 32, b 2, L 4096):
    # TP 4 on 8 GPUs gives d = 2, a = 64 / (2 · 2) = 16.
    (
        "qwen2_7b.pretrain_recipe(tensor_parallelism=4, global_batch_size=64)",
        (),
        None,
        (8, 2, 2, 16, 64, 4096),
        {},
    ),
    # mixtral_8x7b.py:144-148 pretrain_recipe's own 8 nodes × 8 GPUs; PP 4 (VPP 8): d = 16, a = 512 / 16 = 32.
    ("mixtral_8x7b.pretrain_recipe()", (), None, (64, 16, 1, 32, 512, 4096), {}),
    # recipe.trainer.num_nodes / .devices assigned win over the call's keywords: 2 × 4 = 8, CP 2: d = 4, a = 128.
    (
        "llama31_8b.pretrain_recipe(num_nodes=1, num_gpus_per_node=8)",
        ("trainer.num_nodes = 2", "trainer.devices = 4"),
        None,
        (8, 4, 1, 128, 512, 8192),
        {},
    ),
    # A given world wins over num_nodes × num_gpus_per_node: 32 GPUs, CP 2: d = 16, a = 32.
    ("llama3_8b.pretrain_recipe(num_nodes=1)", (), 32, (32, 16, 1, 32, 512, 8192), {}),
    # recipe.data replaced whole: the new data module's keywords (B 64, b 2, L 4096), the strategy's defaults kept
    # (llama3_8b's CP 2): 8 GPUs, d = 4, a = 64 / (2 · 4) = 8.
    (
        "llama3_8b.pretrain_recipe(num_nodes=1, num_gpus_per_node=8)",
        (
            "data = run.Config(llm.PreTrainingDataModule, paths=['d'], seq_length=4096, global_batch_size=64, "
            "micro_batch_size=2)",
        ),
        None,
        (8, 4, 2, 8, 64, 4096),
        {},
    ),
    # recipe.data replaced by the script's own helper: the batch is not the recipe's any more, and unknown.
    (
        "llama3_8b.pretrain_recipe(num_nodes=1, num_gpus_per_node=8)",
        ("data = configure_dataset()",),
        None,
        (None, None, None, None, None, None),
        {UNKNOWN: None},
    ),
    # Not in the table: what the script does not set is unknown, said, and nothing is computed.
    (
        "deepseek_v3.pretrain_recipe(num_nodes=1, num_gpus_per_node=8)",
        ("data.global_batch_size = 64",),
        None,
        (None, None, None, None, None, None),
        {UNKNOWN: None},
    ),
    # Not in the table, but the script sets every number the batch needs: computed, VPP named as unknown.
    (
        "deepseek_v3.pretrain_recipe(num_nodes=1, num_gpus_per_node=8)",
        (
            "trainer.strategy.tensor_model_parallel_size = 2",
            "trainer.strategy.pipeline_model_parallel_size = 2",
            "trainer.strategy.context_parallel_size = 1",
            "data.global_batch_size = 64",
            "data.micro_batch_size = 2",
            "data.seq_length = 4096",
        ),
        None,
        (8, 2, 2, 16, 64, 4096),
        {UNKNOWN: None},
    ),
]


@pytest.mark.parametrize(("call", "assignments", "world", "expected", "findings"), CASES, ids=[c[0] for c in CASES])
def test_a_used_recipe_gets_its_defaults_and_the_scripts_changes(
    call: str,
    assignments: tuple[str, ...],
    world: int | None,
    expected: tuple[int | None, ...],
    findings: dict[str, str | None],
) -> None:
    """Detected as NeMo 2 (Megatron-Bridge's module), the numbers megatron-core computes, messages verbatim."""
    check = checked(script(call, *assignments), world)
    assert check.framework == "megatron_bridge"
    assert numbers(check) == expected
    assert {f.code: f.message for f in check.findings if not f.code.startswith("memory/")} == findings


def test_a_finetune_recipe_names_what_it_does_not_know() -> None:
    """``finetune_recipe``'s data module differs by model: its defaults are unknown, named, not guessed."""
    check = checked(script("llama3_8b.finetune_recipe(num_nodes=1)"))
    unknown = next(f for f in check.findings if f.code == UNKNOWN)
    assert "data.global_batch_size" in str(unknown.context)
    assert check.global_batch is None


def test_each_default_says_where_it_was_read() -> None:
    """A default taken from the table is noted with the recipe's file and NeMo's commit."""
    check = checked(script("llama3_8b.pretrain_recipe()"))
    where = {read.key: read.where for read in check.read}
    assert where["data.global_batch_size"].startswith("nemo/collections/llm/recipes/llama3_8b.py:")
    assert "8cfedd72" in where["trainer.strategy.context_parallel_size"]


def test_of_several_recipes_the_first_is_checked_and_said() -> None:
    """Two recipe calls in one file (one function each): the first is read, and the answer says so."""
    text = script("llama3_8b.pretrain_recipe()") + script("qwen2_7b.pretrain_recipe()").replace("configure", "other")
    check = checked(text)
    assert check.global_batch == 512
    assert "megatron_bridge/first-recipe-of-file" in {f.code for f in check.findings}

"""PyTorch's ``DataLoader`` as training scripts build it: which one trains, and its batch (``torch/utils/data/
dataloader.py``: ``batch_size`` defaults to 1). Lightning and accelerate both hand the loader's batch to each
process unchanged (a ``DistributedSampler`` splits the samples, not the batch)."""

from __future__ import annotations

from effbatch.core.configs.base.pyscript import Given, PyScript

#: torch's ``DataLoader`` default: one sample a batch.
LOADER_DEFAULT = 1


def training_loader(script: PyScript) -> Given | None:
    """The training DataLoader's batch size: one built in a ``train…`` function (``train_dataloader``), else a
    shuffling one a run reaches, else the first; ``batch_size`` or its second positional argument, torch's default
    of 1 where absent; None where the script builds no DataLoader."""
    calls = sorted(
        script.called("DataLoader"),
        key=lambda c: (
            "train" not in c.function.rsplit(".", 1)[-1],
            c.keywords.get("shuffle", Given(False, 0)).value is not True,
            not c.reached,
        ),
    )
    if not calls:
        return None
    call = calls[0]
    if "batch_size" in call.keywords:
        return call.keywords["batch_size"]
    return call.args[1] if len(call.args) > 1 else Given(LOADER_DEFAULT, call.line, "DataLoader")

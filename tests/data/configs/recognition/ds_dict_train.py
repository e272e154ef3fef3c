"""A training loop that builds its DeepSpeed config as a dict (shaped like DeepSpeed's tutorials'
``deepspeed.initialize(model=…, config=ds_config)``)."""
import deepspeed
import torch

micro = 2
ds_config = {
    "train_batch_size": 64,
    "train_micro_batch_size_per_gpu": micro,
    "gradient_accumulation_steps": 4,
    "bf16": {"enabled": True},
}


def main():
    model = torch.nn.Linear(8, 8)
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)


if __name__ == "__main__":
    main()

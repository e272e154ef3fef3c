"""A library module that calls deepspeed.initialize only inside a function other modules call (shaped like
Megatron-DeepSpeed megatron/training.py setup_model_and_optimizer): no run starts here, so it is no DeepSpeed run."""
import deepspeed


def setup_model_and_optimizer(model, args, mpu):
    model, optimizer, _, _ = deepspeed.initialize(model=model, args=args, mpu=mpu, config=args.deepspeed_config_dict)
    return model, optimizer

"""What several frameworks know because they run the same code: Megatron-Core's parallel layout and micro-batch
calculator (``megatron_core``), the Hugging Face Trainer's batch (``hf_trainer``), accelerate's launch
(``accelerate_launch``), DeepSpeed's config (``deepspeed_config``) and what Megatron's arguments, a Hugging Face id
and a DeepSpeed config say of the model and its memory (``memory_facts``). A framework module imports these, never
another framework; these import ``base`` and each other only downwards (``hf_trainer`` on the other three)."""

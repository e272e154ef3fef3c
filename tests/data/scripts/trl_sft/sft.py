from datasets import load_dataset
from trl import SFTConfig, SFTTrainer

dataset = load_dataset("trl-lib/Capybara", split="train")
training_args = SFTConfig(
    output_dir="Qwen2.5-0.5B-SFT",
    per_device_train_batch_size=2,
    gradient_accumulation_steps=8,
    max_length=2048,
    packing=True,
)
trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", train_dataset=dataset, args=training_args)
trainer.train()

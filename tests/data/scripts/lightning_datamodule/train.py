import argparse
import pytorch_lightning as pl
from torch.utils.data import DataLoader

class DM(pl.LightningDataModule):
    def __init__(self, batch_size: int = 32, workers=4):
        super().__init__()
        self.save_hyperparameters()
        self.batch_size = batch_size

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=self.batch_size, shuffle=True, num_workers=4)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=self.hparams.batch_size * 2)

def cli():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=24)
    parser.add_argument("--gpus", type=int, default=2)
    args = parser.parse_args()
    dm = DM(batch_size=args.batch_size)
    trainer = pl.Trainer(accelerator="gpu", devices=args.gpus, strategy="ddp", accumulate_grad_batches=2)
    trainer.fit(None, datamodule=dm)

if __name__ == "__main__":
    cli()

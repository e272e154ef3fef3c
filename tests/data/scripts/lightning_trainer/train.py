import lightning as L
from torch.utils.data import DataLoader

class LitModel(L.LightningModule):
    pass

def main():
    model = LitModel()
    train_loader = DataLoader(dataset, batch_size=16, shuffle=True)
    val_loader = DataLoader(val, batch_size=64)
    trainer = L.Trainer(devices=8, num_nodes=2, accumulate_grad_batches=4, max_epochs=3)
    trainer.fit(model, train_loader, val_loader)

if __name__ == "__main__":
    main()

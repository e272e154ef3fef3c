# Hyper-parameters of a Keras experiment.
batch_size = 64
epochs = 20
lr = 1e-3
model_name = "resnet50"

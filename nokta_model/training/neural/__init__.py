"""Training the network (torch): data, the training loop, resumable training states, export
and shipping; the presets are in ``configs/``."""

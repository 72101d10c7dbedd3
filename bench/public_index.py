"""The environment of a pip that resolves from the public index, as on a user's machine: this
machine's local wheel mirror and pip configuration switched off, and no PYTHONPATH into a
checkout (pip would take the checkout's nokta for installed)."""

from __future__ import annotations

import os

#: What torch's default build on Linux brings (several GB): nokta's plain install has none.
CUDA_STACK = ("torch", "triton", "nvidia-", "cuda")
#: The settings that point pip at another index or a local mirror; PIP_CONFIG_FILE=/dev/null
#: also leaves out every pip.conf.
MIRROR_SETTINGS = ("PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_NO_INDEX", "PIP_CONSTRAINT")


def public_index_env() -> dict[str, str]:
    left_out = (*MIRROR_SETTINGS, "PYTHONPATH")
    return {name: value for name, value in os.environ.items() if name not in left_out} | {"PIP_CONFIG_FILE": os.devnull}

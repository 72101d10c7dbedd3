"""The default loads the network (and imports its runtime) only when a line needs it,
and never imports torch for it."""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
import pytest

from nokta_model.default import LazyNetwork

SETTLED = "Bugun hava cok guzel."  # every word known, none left in doubt: the count models decide
UNSEEN = "Dun Qwzkxlirtcigi gorduk."  # a word no lexicon has: the network spells it


def imported_by_restore(text: str) -> set[str]:
    """The top-level packages ``nokta restore`` imported to restore ``text`` (read from ``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "nokta_model", "restore"],
        input=text + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}


def test_a_line_the_count_models_settle_never_loads_the_network():
    assert not {"onnxruntime", "torch"} & imported_by_restore(SETTLED)


def test_a_line_with_an_unseen_word_runs_the_network_on_onnx_runtime_without_torch():
    imported = imported_by_restore(UNSEEN)
    assert "onnxruntime" in imported and "torch" not in imported


def test_the_network_loads_once_whichever_thread_asks_first():
    loads = []

    class Network:
        def line_probabilities(self, lines):
            return [np.full(len(line), 0.5) for line in lines]

    def load():
        loads.append(1)
        return Network()

    lazy = LazyNetwork(load)
    assert not lazy.loaded and not loads
    threads = [threading.Thread(target=lazy.line_probabilities, args=(["abc"],)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert lazy.loaded and len(loads) == 1
    assert [p.tolist() for p in lazy.line_probabilities(["ab"])] == [[0.5, 0.5]]


def test_a_device_this_machine_lacks_is_refused_at_load_not_mid_restore():
    torch = pytest.importorskip("torch")

    from nokta_model.backends import load_restorer

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(ValueError, match="not available"):
        load_restorer("default", device="cuda")

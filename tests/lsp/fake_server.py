"""Run nokta-lsp with the fake restorer (model name "broken" fails to load, "slow" takes
``SLOW_LOAD_S`` to load)."""

import sys
import time

from nokta_lsp.cli import main
from tests.lsp.fake_restorer import FakeRestorer

SLOW_LOAD_S = 3.0


def load_fake(name_or_path: str, device: str = "auto") -> FakeRestorer:
    if name_or_path == "broken":
        raise ValueError("this model is broken on purpose")
    if name_or_path == "slow":
        time.sleep(SLOW_LOAD_S)  # the time a slow load takes, which the tests that ask for it exercise
    return FakeRestorer()


sys.exit(main(sys.argv[1:], loader=load_fake))

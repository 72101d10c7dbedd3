"""Run nokta-lsp with the fake restorer (model name "broken" fails to load)."""

import sys

from nokta_lsp.cli import main
from tests.lsp.fake_restorer import FakeRestorer


def load_fake(name_or_path: str, device: str = "auto") -> FakeRestorer:
    if name_or_path == "broken":
        raise ValueError("this model is broken on purpose")
    return FakeRestorer()


sys.exit(main(sys.argv[1:], loader=load_fake))

"""The server's memory trimmer: rate-limited, and a no-op where there is no malloc_trim."""

import sys

import pytest

from nokta_lsp.memory import MemoryTrimmer


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_trims_on_linux_at_most_once_an_interval():
    trimmer = MemoryTrimmer(interval_s=3600)
    assert trimmer.available
    assert not trimmer.maybe_trim()  # the interval starts when the trimmer is made

    eager = MemoryTrimmer(interval_s=0)
    assert eager.maybe_trim()
    assert eager.maybe_trim()

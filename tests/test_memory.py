"""The server's memory trimmer: rate-limited, and a no-op where there is no malloc_trim."""

import subprocess
import sys
import textwrap

import pytest

from nokta_lsp.state.memory import MemoryTrimmer


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_trims_on_linux_at_most_once_an_interval():
    trimmer = MemoryTrimmer(interval_s=3600)
    assert trimmer.available
    assert not trimmer.maybe_trim()  # the interval starts when the trimmer is made

    eager = MemoryTrimmer(interval_s=0)
    assert eager.maybe_trim()
    assert eager.maybe_trim()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_with_the_mmap_threshold_held_freed_large_blocks_leave_the_process():
    """In a process of its own (the setting is process-wide): megabyte blocks freed
    between blocks still held go back to the system, where glibc's moving threshold
    would have kept them in its heap."""
    script = textwrap.dedent(
        """
        from nokta_lsp.state.memory import hold_mmap_threshold
        def rss_mb():
            return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS")) / 1024
        blocks = [bytearray(1 << 20) for _ in range(3)]
        assert hold_mmap_threshold()
        del blocks  # freed once: glibc's moving threshold would rise above their size here
        blocks = [bytearray(1 << 20) for _ in range(200)]
        held = rss_mb()
        del blocks[::2]
        print(held - rss_mb())
        """
    )
    freed = float(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
    assert freed > 80  # of the 100 MB freed

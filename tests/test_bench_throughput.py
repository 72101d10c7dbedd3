"""bench.throughput's table: each backend's time beside the rule table's on the same text."""

from __future__ import annotations

from bench.throughput import TABLE, table

#: A report as the bench writes it before CPU time and the network's start-up were measured.
REPORT = {
    "runs": 3,
    "date": "2026-11-27",
    "machine": "2 CPUs",
    "load_average": [1.0, 1.1],
    "characters": {"vikipedi_test": 690_000},
    "texts": {"vikipedi_test": {TABLE: 4.0, "default": 6.0}},
    "start_s": {"default": 0.9},
}


def test_each_backend_is_timed_against_the_rule_table_on_the_same_text():
    markdown = table(REPORT, ["default"])
    assert "| vikipedi_test (690 k chars) | 4.00 s | 6.00 s (1.50×) |" in markdown
    assert "| start-up: one line |  | 0.90 s |" in markdown
    assert "2026-11-27, 2 CPUs, load average 1.0 at the start" in markdown


def test_cpu_time_and_the_start_up_with_the_network_are_shown_when_measured():
    report = {
        **REPORT,
        "cpu_s": {"vikipedi_test": {TABLE: 3.9, "default": 8.5}},
        "start_network_s": {"default": 1.4},
    }
    markdown = table(report, ["default"])
    assert "| vikipedi_test (690 k chars) | 4.00 s, CPU 3.90 s | 6.00 s (1.50×), CPU 8.50 s |" in markdown
    assert "| start-up: one line the network decides |  | 1.40 s |" in markdown

"""End to end in a real VS Code: code-server (VS Code 1.100 served to a browser) with the packaged
``nokta.vsix``, driven by Playwright in Debian's Chromium, against the real ``nokta-lsp``.

Slow (about a minute). Needs ``editors/vscode/e2e/setup.sh`` run once, Debian's chromium, and
the extension's own ``npm ci``. The server is found on PATH, as a user's would be.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nokta_model.ngram.artifact import DEFAULT_ARTIFACT

VSCODE = Path(__file__).resolve().parents[1] / "editors" / "vscode"
E2E = VSCODE / "e2e"
CODE_SERVER = E2E / "node_modules" / ".bin" / "code-server"
CHROMIUM = shutil.which("chromium")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CODE_SERVER.exists(), reason="code-server not installed: run editors/vscode/e2e/setup.sh"),
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian: apt-get install chromium)"),
    pytest.mark.skipif(not (VSCODE / "node_modules").is_dir(), reason="run npm ci in editors/vscode first"),
    pytest.mark.skipif(not DEFAULT_ARTIFACT.exists(), reason="ngram model not built: nokta train --backend ngram"),
]

USER_SETTINGS = {
    "nokta.backend": "ngram",
    "[plaintext]": {"editor.codeActionsOnSave": {"source.fixAll.nokta": "explicit"}},  # as the README says
    "workbench.startupEditor": "none",
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"code-server did not listen on port {port}")


def test_vscode_session(tmp_path: Path) -> None:
    subprocess.run(["npm", "run", "package"], cwd=VSCODE, check=True, capture_output=True, timeout=300)
    workspace, user_data, extensions, shots = (tmp_path / name for name in ("ws", "user", "ext", "shots"))
    for folder in (workspace, user_data / "User", extensions, shots):
        folder.mkdir(parents=True)
    (workspace / "note.txt").write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    (user_data / "User" / "settings.json").write_text(json.dumps(USER_SETTINGS), encoding="utf-8")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    dirs = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    subprocess.run([CODE_SERVER, *dirs, "--install-extension", str(VSCODE / "nokta.vsix")],
                   env=env, check=True, capture_output=True, timeout=120)  # fmt: skip

    port = free_port()
    server = subprocess.Popen(
        [CODE_SERVER, *dirs, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", str(workspace)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_port(port, 60)
        drive = subprocess.run(
            ["node", E2E / "drive.js", f"http://127.0.0.1:{port}/?folder={workspace}", str(shots)],
            cwd=E2E, env={**env, "CHROMIUM": CHROMIUM}, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # code-server, its extension host and nokta-lsp
        server.wait(timeout=30)
    seen = json.loads(drive.stdout.strip().splitlines()[-1])
    assert seen.get("error") is None, f"{seen['error']}; screenshots in {shots}\n{drive.stderr}"
    assert seen["squiggles"] == 3
    assert seen["quickFixes"][0] == "Change to 'Bugün'"
    assert seen["afterQuickFix"] == "Bugün hava cok guzel."
    assert seen["warnings"] == 2  # nokta.severity set to "warning" in the Settings editor
    assert seen["afterRestore"] == "Bugün hava çok güzel."
    assert seen["afterSave"].splitlines() == ["Bugün hava çok güzel.", "Yarın okula gideceğim."]
    saved = (workspace / "note.txt").read_text(encoding="utf-8")
    assert saved.splitlines() == ["Bugün hava çok güzel.", "Yarın okula gideceğim."]
    assert "nokta-lsp --stdio" in seen["output"]

"""End to end in a real VS Code: code-server (VS Code 1.100 served to a browser) with the packaged
``nokta.vsix``, driven by Playwright in Debian's Chromium, against the real ``nokta-lsp``.

Each case starts from a fresh virtual environment that the editor runs in (its ``VIRTUAL_ENV``):
one with nokta installed from the wheel the ``.vsix`` carries, found through ``VIRTUAL_ENV``
alone; one without it, where the extension's *Install nokta language server* makes its own
environment from that wheel. No ``nokta-lsp`` is on the editor's ``PATH`` in either. About a
minute each (pip installs PyTorch in both). Needs ``editors/vscode/e2e/setup.sh`` run once,
Debian's chromium and the extension's own ``npm ci``: ``.ci/run`` installs them.
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
import zipfile
from pathlib import Path

import pytest

from nokta_model.ngram.artifact import DEFAULT_ARTIFACT

VSCODE = Path(__file__).resolve().parents[1] / "editors" / "vscode"
E2E = VSCODE / "e2e"
CODE_SERVER = E2E / "node_modules" / ".bin" / "code-server"
CHROMIUM = shutil.which("chromium")

pytestmark = [
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
        time.sleep(0.2)  # a poll: nothing tells when code-server listens
    raise TimeoutError(f"code-server did not listen on port {port}")


@pytest.fixture(scope="module")
def vsix() -> Path:
    subprocess.run(["npm", "run", "package"], cwd=VSCODE, check=True, capture_output=True, timeout=300)
    return VSCODE / "nokta.vsix"


def fresh_venv(folder: Path, wheel: Path | None) -> Path:
    subprocess.run([sys.executable, "-m", "venv", folder], check=True, capture_output=True, timeout=120)
    if wheel:
        pip = [folder / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check", "-q", wheel]
        # without PYTHONPATH: a checkout on it (its nokta.egg-info) reads as nokta installed already
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        subprocess.run(pip, check=True, capture_output=True, timeout=600, env=env)
    return folder


def editor_env(venv: Path, tmp_path: Path, on_path: bool) -> dict[str, str]:
    """The environment code-server runs in: VIRTUAL_ENV set, no nokta-lsp on PATH."""
    path = [folder for folder in os.environ["PATH"].split(os.pathsep) if not Path(folder, "nokta-lsp").exists()]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "config"), "VIRTUAL_ENV": str(venv),
            "PATH": os.pathsep.join([str(venv / "bin")] * on_path + path)}  # fmt: skip
    # As when `code .` starts VS Code from a shell: the extension host keeps this environment
    # instead of one from a login shell (whose rc files may put a nokta-lsp on PATH).
    env["VSCODE_CLI"] = "1"
    return env


def output_log(user_data: Path) -> str:
    """The Nokta output channel, as VS Code keeps it on disk."""
    return "".join(log.read_text(encoding="utf-8") for log in user_data.glob("logs/**/*Nokta.log"))


def drive_code_server(vsix: Path, env: dict[str, str], tmp_path: Path, install: bool) -> dict:
    """Installs the .vsix, serves the workspace and drives one session; returns what drive.js saw."""
    workspace, user_data, extensions, shots = (tmp_path / name for name in ("ws", "user", "ext", "shots"))
    for folder in (workspace, user_data / "User", extensions, shots):
        folder.mkdir(parents=True)
    (workspace / "note.txt").write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    (workspace / "other.md").write_text("Yarin gorusuruz.\n", encoding="utf-8")  # never opened
    (user_data / "User" / "settings.json").write_text(json.dumps(USER_SETTINGS), encoding="utf-8")
    dirs = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    subprocess.run([CODE_SERVER, *dirs, "--install-extension", str(vsix)],
                   env=env, check=True, capture_output=True, timeout=120)  # fmt: skip

    port = free_port()
    code_server = subprocess.Popen(
        [CODE_SERVER, *dirs, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", str(workspace)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_port(port, 60)
        url = f"http://127.0.0.1:{port}/?folder={workspace}"
        drive = subprocess.run(
            ["node", E2E / "drive.js", url, str(shots), *(["--install"] if install else [])],
            cwd=E2E, env={**env, "CHROMIUM": CHROMIUM}, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    finally:
        os.killpg(code_server.pid, signal.SIGTERM)  # code-server, its extension host and nokta-lsp
        code_server.wait(timeout=30)
    seen = json.loads(drive.stdout.strip().splitlines()[-1])
    assert seen.get("error") is None, f"{seen['error']}; screenshots in {shots}\n{drive.stderr}"
    return seen


@pytest.mark.parametrize("server", ["preinstalled", "installed-by-extension"])
def test_vscode_session(server: str, vsix: Path, tmp_path: Path) -> None:
    preinstalled = server == "preinstalled"
    with zipfile.ZipFile(vsix) as archive:
        [wheel_name] = [name for name in archive.namelist() if name.endswith(".whl")]
        wheel = Path(archive.extract(wheel_name, tmp_path / "vsix"))
    venv = fresh_venv(tmp_path / "venv", wheel if preinstalled else None)
    private = tmp_path / "user" / "User" / "globalStorage" / "nokta.nokta" / "server"
    # A user's activated environment has its bin on PATH; with the server in it, leave it
    # off so that VIRTUAL_ENV alone must lead the extension there.
    env = editor_env(venv, tmp_path, on_path=not preinstalled)
    try:
        seen = drive_code_server(vsix, env, tmp_path, install=not preinstalled)
    finally:
        for environment in (venv, private):  # about 1 GB each, PyTorch mostly
            shutil.rmtree(environment, ignore_errors=True)

    if not preinstalled:
        assert "Cannot find the nokta-lsp language server" in seen["missingServer"]
    assert seen["squiggles"] == 3
    assert seen["hints"] == ["→ Bugün", "→ çok", "→ güzel"]
    assert seen["afterHint"] == "Bugun hava cok güzel."
    assert seen["status"] == ["nokta", "nokta paused", "nokta"]
    assert "other.md" in seen["problems"] and "Yarin → Yarın" in seen["problems"]
    assert seen["quickFixes"][0] == "Change to 'Bugün'"
    assert seen["afterQuickFix"] == "Bugün hava cok guzel."
    assert seen["afterSecondFix"] == "Bugün hava çok guzel."
    assert seen["warnings"] == 1  # nokta.severity set to "warning" in the Settings editor
    assert seen["afterRestore"] == "Bugün hava çok güzel."
    assert seen["afterTyping"].splitlines() == ["Bugün hava çok güzel.", "Yarın okula gideceğim."]
    assert seen["squigglesWhileTyping"] == 0  # "ogrenci", not followed by a separator yet
    restored = ["Bugün hava çok güzel.", "Yarın okula gideceğim.", "öğrenci"]
    assert seen["afterSave"].splitlines() == restored
    saved = (tmp_path / "ws" / "note.txt").read_text(encoding="utf-8")
    assert saved.splitlines() == restored
    assert "nokta-lsp --stdio" in seen["output"]
    started = venv if preinstalled else private
    assert f"Starting {started / 'bin' / 'nokta-lsp'} --stdio" in output_log(tmp_path / "user")

"""Editor clients: VS Code's settings match the server's, the extension builds, lints, passes
its unit tests and packages; the setup snippets for other editors parse."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import nokta_model
from nokta_lsp.state.settings import (
    BOUNDS,
    CLIENT_ONLY_KEYS,
    DESCRIPTIONS,
    ENUMS,
    Settings,
    defaults_as_json,
    setting_types,
)
from nokta_model.config import CONFIG_NAMES, SCHEMA

ROOT = Path(__file__).resolve().parents[1]
VSCODE = ROOT / "editors" / "vscode"
SNIPPETS = ROOT / "editors" / "snippets"
CLIENT_ONLY = ["nokta.server.path", "nokta.server.installArgs", "nokta.trace.server"]
JSON_TYPES = {tuple: "array", bool: "boolean", str: "string", float: "number", int: "integer"}


def contributed() -> dict[str, dict]:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    return package["contributes"]["configuration"]["properties"]


def test_vscode_contributes_exactly_the_server_settings_in_order() -> None:
    server_keys = [f"nokta.{key}" for key in setting_types()]
    assert [key for key in contributed() if key not in CLIENT_ONLY] == server_keys
    assert all(key in contributed() for key in CLIENT_ONLY)


@pytest.mark.parametrize("key", list(setting_types()))
def test_vscode_setting_matches_the_server(key: str) -> None:
    setting = contributed()[f"nokta.{key}"]
    kind = setting_types()[key]
    assert setting["type"] == JSON_TYPES[kind]
    if kind is tuple:
        assert setting["items"] == {"type": "string"}
    assert setting["default"] == defaults_as_json()[key]
    assert setting.get("enum") == (list(ENUMS[key]) if key in ENUMS else None)
    low, high = BOUNDS.get(key, (None, None))
    assert (setting.get("minimum"), setting.get("maximum")) == (low, high)
    assert setting.get("description") or setting.get("markdownDescription")


def test_vscode_readme_names_its_own_settings_and_links_the_rest() -> None:
    readme = (VSCODE / "README.md").read_text(encoding="utf-8")
    client_only = [key for key in contributed() if key.split(".")[1] in CLIENT_ONLY_KEYS]
    assert client_only and all(f"`{key}`" in readme for key in client_only)
    assert "docs/settings.md" in readme


def test_vscode_registers_the_configuration_schema_for_the_toml_extension() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (validation,) = package["contributes"]["tomlValidation"]
    assert validation["fileMatch"] == list(CONFIG_NAMES[:2])  # pyproject.toml has a schema of its own
    shipped = (VSCODE / validation["url"]).read_text(encoding="utf-8")
    assert json.loads(shipped) == SCHEMA  # the copy in the extension is the package's schema
    assert "!" + validation["url"].removeprefix("./") in (VSCODE / ".vscodeignore").read_text(encoding="utf-8")


def test_nvim_config_attaches_to_file_types_the_server_checks() -> None:
    config = (ROOT / "editors" / "nvim" / "lsp" / "nokta.lua").read_text(encoding="utf-8")
    filetypes = re.search(r"filetypes = \{([^}]*)\}", config)
    assert filetypes, "lsp/nokta.lua has no filetypes"
    assert set(re.findall(r"'([\w-]+)'", filetypes[1])) <= set(Settings().fileTypes)


# --- the extension's own toolchain: build, lint, unit tests, package -------------------


@pytest.fixture(scope="module")
def npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the VS Code extension needs Node.js 20 and npm")
    if not (VSCODE / "node_modules").is_dir():
        run([npm, "ci"])  # CI installs with `npm ci --prefix editors/vscode`; this is the same
    return npm


def run(command: list[str]) -> str:
    done = subprocess.run(command, cwd=VSCODE, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize("script", ["build", "lint", "test"])
def test_vscode_npm_script(npm: str, script: str) -> None:
    output = run([npm, "run", script])
    if script == "test":
        assert re.search(r"^# fail 0$", output, flags=re.MULTILINE), output
        assert not re.search(r"^# pass 0$", output, flags=re.MULTILINE), output


def test_vscode_packages_a_vsix(npm: str) -> None:
    vsix = VSCODE / "nokta.vsix"
    vsix.unlink(missing_ok=True)
    run([npm, "run", "package"])
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        package = json.loads(archive.read("extension/package.json"))
    wheel = f"extension/server/nokta-{nokta_model.__version__}-py3-none-any.whl"
    shipped = {"extension/dist/extension.js", "extension/readme.md", "extension/LICENSE.txt", wheel}
    assert shipped | {"extension/schemas/nokta.schema.json"} <= names
    assert not any("node_modules" in name or name.startswith("extension/src/") for name in names)
    assert package["contributes"]["configuration"]["properties"] == contributed()


# --- setup snippets for other editors -----------------------------------------------


def test_helix_snippet() -> None:
    config = tomllib.loads((SNIPPETS / "helix-languages.toml").read_text(encoding="utf-8"))
    server = config["language-server"]["nokta"]
    assert server["command"] == "nokta-lsp" and server["args"] == ["--stdio"]
    assert set(server["config"]["nokta"]) <= set(setting_types())
    languages = {language["name"]: language for language in config["language"]}
    assert languages, "no language uses nokta"
    for language in languages.values():
        assert "nokta" in language["language-servers"]


def test_sublime_snippet() -> None:
    text = (SNIPPETS / "sublime-LSP.sublime-settings").read_text(encoding="utf-8")
    # Sublime's settings are JSON with // comments
    config = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE))
    client = config["clients"]["nokta"]
    assert client["enabled"] is True
    assert client["command"] == ["nokta-lsp", "--stdio"]
    assert client["selector"]
    assert set(client["settings"]["nokta"]) <= set(setting_types())
    assert set(client["initializationOptions"]) <= set(setting_types())


def test_emacs_snippet() -> None:
    source = (SNIPPETS / "eglot.el").read_text(encoding="utf-8")
    programs = [form for form in walk(read_sexps(source)) if form[:2] == ["add-to-list", "'eglot-server-programs"]]
    assert programs, "eglot.el adds nothing to eglot-server-programs"
    assert '"nokta-lsp"' in str(programs) and '"--stdio"' in str(programs)
    keys = re.findall(r":(\w+)", source.split("eglot-workspace-configuration", 1)[1])
    assert set(keys) - {"nokta"} <= set(setting_types())


def walk(forms: list) -> list[list]:
    """Every form, nested ones included."""
    nested = [form for form in forms if isinstance(form, list)]
    return nested + [inner for form in nested for inner in walk(form)]


def read_sexps(source: str) -> list:
    """Top-level forms of Emacs Lisp source as nested lists of atoms (strings kept quoted).

    Enough to check structure and balance: quote marks stay glued to the next atom.
    """
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|;[^\n]*|[()]|[^\s()"]+', source)
    stack: list[list] = [[]]
    for token in tokens:
        if token.startswith(";"):
            continue
        if token == "(":
            stack.append([])
        elif token == ")":
            assert len(stack) > 1, "unbalanced ')'"
            form = stack.pop()
            stack[-1].append(form)
        else:
            stack[-1].append(token)
    assert len(stack) == 1, "unbalanced '('"
    return stack[0]


def test_one_version_for_the_cli_the_server_and_the_extension():
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    cli = subprocess.run([sys.executable, "-m", "nokta_model", "--version"], capture_output=True, text=True, check=True)
    server = subprocess.run(
        [sys.executable, "-m", "nokta_lsp", "--version"], capture_output=True, text=True, check=True
    )
    assert cli.stdout.split() == ["nokta", nokta_model.__version__]
    assert server.stdout.split() == ["nokta-lsp", nokta_model.__version__]
    assert package["version"] == nokta_model.__version__


def test_the_settings_page_is_generated_from_the_settings():
    assert set(DESCRIPTIONS) == set(setting_types())
    assert subprocess.run([sys.executable, "-m", "nokta_lsp.state.settings_doc", "--check"]).returncode == 0

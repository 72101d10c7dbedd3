import assert from "node:assert/strict";
import * as os from "node:os";
import { test } from "node:test";
import type * as vscode from "vscode";
import { ServerNotFound, findServer, onPythonChange, selectedPython } from "../src/discovery";

const only = (...files: string[]) => (file: string) => files.includes(file);

test("nokta.server.path wins, with ~ expanded", () => {
  const configured = `${os.homedir()}/bin/nokta-lsp`;
  const found = findServer({
    configured: "~/bin/nokta-lsp",
    python: "/venv/bin/python",
    pathEnv: "/usr/bin",
    platform: "linux",
    isExecutable: only(configured, "/venv/bin/nokta-lsp", "/usr/bin/nokta-lsp"),
  });
  assert.equal(found, configured);
});

test("a configured path that is not executable is an error naming the setting", () => {
  assert.throws(
    () => findServer({ configured: "/nope", pathEnv: "/usr/bin", isExecutable: only("/usr/bin/nokta-lsp") }),
    (error: Error) => error instanceof ServerNotFound && /nokta\.server\.path.*\/nope/.test(error.message),
  );
});

test("the selected Python environment comes before PATH", () => {
  const where = { python: "/venv/bin/python3", pathEnv: "/usr/local/bin:/usr/bin", platform: "linux" as const };
  assert.equal(findServer({ ...where, isExecutable: only("/venv/bin/nokta-lsp", "/usr/bin/nokta-lsp") }), "/venv/bin/nokta-lsp");
  assert.equal(findServer({ ...where, isExecutable: only("/usr/bin/nokta-lsp") }), "/usr/bin/nokta-lsp");
});

test("Windows: Scripts folder and .exe", () => {
  const found = findServer({
    python: "C:\\Py\\python.exe",
    pathEnv: "C:\\Windows",
    platform: "win32",
    isExecutable: only("C:\\Py\\Scripts\\nokta-lsp.exe"),
  });
  assert.equal(found, "C:\\Py\\Scripts\\nokta-lsp.exe");
});

test("nothing found: an actionable error", () => {
  assert.throws(
    () => findServer({ python: "/venv/bin/python", pathEnv: "/usr/bin", platform: "linux", isExecutable: () => false }),
    (error: Error) =>
      error instanceof ServerNotFound &&
      error.message.includes("/venv/bin/python") &&
      error.message.includes("pip install") &&
      error.message.includes("nokta.server.path"),
  );
});

test("the real file system: an executable is found on PATH", () => {
  // `node` runs this test, so it is an executable file in its own folder.
  const dir = process.execPath.slice(0, process.execPath.lastIndexOf("/"));
  assert.throws(() => findServer({ pathEnv: dir }), ServerNotFound);
  assert.equal(findServer({ configured: process.execPath }), process.execPath);
});

type Extensions = Pick<typeof vscode.extensions, "getExtension">;
const uri = (fsPath: string) => ({ fsPath }) as vscode.Uri;

test("the selected Python comes from the Python extension's environments API", async () => {
  const api = {
    environments: {
      getActiveEnvironmentPath: () => ({ path: "/venv" }),
      resolveEnvironment: async (env: { path: string }) => ({ executable: { uri: uri(`${env.path}/bin/python`) } }),
    },
  };
  let activated = false;
  const extensions = {
    getExtension: (id: string) =>
      id === "ms-python.python"
        ? { isActive: false, exports: undefined, activate: async () => ((activated = true), api) }
        : undefined,
  } as unknown as Extensions;
  assert.equal(await selectedPython(extensions), "/venv/bin/python");
  assert.ok(activated);
});

test("a change of Python environment is reported", async () => {
  const listeners: (() => void)[] = [];
  const api = {
    environments: {
      onDidChangeActiveEnvironmentPath: (listener: () => void) => {
        listeners.push(listener);
        return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
      },
    },
  };
  const extensions = { getExtension: () => ({ isActive: true, exports: api }) } as unknown as Extensions;
  let changes = 0;
  const subscription = await onPythonChange(extensions, () => changes++);
  listeners.forEach((listener) => listener());
  assert.equal(changes, 1);
  subscription?.dispose();
  assert.equal(listeners.length, 0);
});

test("no Python extension, or one without the API: no interpreter", async () => {
  assert.equal(await selectedPython({ getExtension: () => undefined } as unknown as Extensions), undefined);
  const old = { getExtension: () => ({ isActive: true, exports: {} }) } as unknown as Extensions;
  assert.equal(await selectedPython(old), undefined);
});

test("after the selected Python: VIRTUAL_ENV, CONDA_PREFIX, a workspace .venv, then PATH", () => {
  const where = {
    virtualEnv: "/home/u/venvs/nokta",
    condaPrefix: "/opt/conda/envs/tr",
    workspaceFolders: ["/work/notes"],
    pathEnv: "/usr/bin",
    platform: "linux" as const,
  };
  const order = [
    "/home/u/venvs/nokta/bin/nokta-lsp",
    "/opt/conda/envs/tr/bin/nokta-lsp",
    "/work/notes/.venv/bin/nokta-lsp",
    "/work/notes/venv/bin/nokta-lsp",
    "/usr/bin/nokta-lsp",
  ];
  for (let first = 0; first < order.length; first++) {
    assert.equal(findServer({ ...where, isExecutable: only(...order.slice(first)) }), order[first]);
  }
  assert.equal(
    findServer({ ...where, python: "/sel/bin/python", isExecutable: only("/sel/bin/nokta-lsp", ...order) }),
    "/sel/bin/nokta-lsp",
  );
});

test("Windows environments keep nokta-lsp.exe in Scripts", () => {
  const found = findServer({
    virtualEnv: "C:\\envs\\nokta",
    pathEnv: "C:\\Windows",
    platform: "win32",
    isExecutable: only("C:\\envs\\nokta\\Scripts\\nokta-lsp.exe"),
  });
  assert.equal(found, "C:\\envs\\nokta\\Scripts\\nokta-lsp.exe");
});

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import {
  Install,
  InstallFailed,
  installServer,
  installedServer,
  pythonsToTry,
  shippedWheel,
  spawnRunner,
} from "../src/install";

const WHEEL = "/ext/server/nokta-0.2.0-py3-none-any.whl";

/**
 * An install whose programs are answered by `answer` (exit code, or "missing" for a program
 * that cannot be started); `calls` records each command line.
 */
function fakeInstall(answer: (command: string, args: string[]) => number | "missing") {
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), "nokta-install-"));
  const calls: string[] = [];
  const steps: string[] = [];
  const install: Install = {
    storage,
    wheel: WHEEL,
    pythons: ["/sel/bin/python", "python3"],
    pipArgs: ["--index-url", "https://mirror.example/simple"],
    platform: "linux",
    step: (message) => steps.push(message),
    run: async (command, args) => {
      calls.push([command, ...args].join(" "));
      if (args[1] === "venv") fs.mkdirSync(path.join(args[2], "bin"), { recursive: true });
      const code = answer(command, args);
      if (code === "missing") throw new Error(`spawn ${command} ENOENT`);
      return code;
    },
  };
  return { install, storage, calls, steps, venv: path.join(storage, "server") };
}

test("happy path: the first working Python makes the environment, pip installs the wheel", async () => {
  const { install, storage, calls, steps, venv } = fakeInstall((command) =>
    command === "/sel/bin/python" ? "missing" : 0,
  );
  const server = await installServer(install);
  assert.equal(server, path.join(venv, "bin", "nokta-lsp"));
  assert.deepEqual(calls.slice(1), [
    "python3 -c import sys; sys.exit(sys.version_info < (3, 11))",
    `python3 -m venv ${venv}`,
    `${venv}/bin/python -m pip install --disable-pip-version-check --progress-bar off --index-url https://mirror.example/simple ${WHEEL}`,
    `${venv}/bin/nokta-lsp --version`,
  ]);
  assert.equal(steps.length, 3);
  assert.equal(installedServer(storage, WHEEL, "linux"), server);
  assert.equal(installedServer(storage, "/ext/server/nokta-0.3.0-py3-none-any.whl", "linux"), undefined);
});

test("no Python 3.11: a clear message and nothing made", async () => {
  const { install, storage, calls } = fakeInstall((command) => (command === "python3" ? 1 : "missing"));
  await assert.rejects(installServer(install), (error: Error) =>
    error instanceof InstallFailed &&
    error.message.includes("Python 3.11") &&
    error.message.includes("/sel/bin/python, python3"),
  );
  assert.equal(calls.length, 2);
  assert.deepEqual(fs.readdirSync(storage), []);
});

test("pip fails: the message points to the output and the setting, the half-made environment is removed", async () => {
  const { install, storage, venv } = fakeInstall((_command, args) => (args[1] === "pip" ? 1 : 0));
  await assert.rejects(installServer(install), (error: Error) =>
    error instanceof InstallFailed &&
    error.message.includes("Nokta output") &&
    error.message.includes("nokta.server.installArgs") &&
    error.message.includes("exit code 1"),
  );
  assert.equal(fs.existsSync(venv), false);
  assert.equal(installedServer(storage, WHEEL, "linux"), undefined);
});

test("venv fails (Debian without python3-venv): said so", async () => {
  const { install, venv } = fakeInstall((_command, args) => (args[1] === "venv" ? 1 : 0));
  await assert.rejects(installServer(install), /python3-venv/);
  assert.equal(fs.existsSync(venv), false);
});

test("a server that does not run is not kept", async () => {
  const { install, storage } = fakeInstall((command) => (command.endsWith("nokta-lsp") ? "missing" : 0));
  await assert.rejects(installServer(install), /does not run: spawn .*ENOENT/);
  assert.equal(installedServer(storage, WHEEL, "linux"), undefined);
});

test("a failed reinstall leaves no half-made server behind", async () => {
  const first = fakeInstall(() => 0);
  await installServer(first.install);
  const again = fakeInstall((_command, args) => (args[1] === "pip" ? 2 : 0));
  await assert.rejects(installServer({ ...again.install, storage: first.storage }), InstallFailed);
  assert.equal(installedServer(first.storage, WHEEL, "linux"), undefined);
  assert.equal(fs.existsSync(first.venv), false);
});

test("Windows: Scripts\\python.exe and nokta-lsp.exe", async () => {
  const { install, calls } = fakeInstall(() => 0);
  const server = await installServer({ ...install, platform: "win32" });
  assert.ok(server.endsWith(path.join("Scripts", "nokta-lsp.exe")));
  assert.ok(calls.some((call) => call.startsWith(path.join(install.storage, "server", "Scripts", "python.exe"))));
});

test("the Python selected in VS Code is tried first", () => {
  assert.deepEqual(pythonsToTry("/venv/bin/python", "linux"), ["/venv/bin/python", "python3", "python"]);
  assert.deepEqual(pythonsToTry(undefined, "win32"), ["python"]);
});

test("the shipped wheel is found in the extension's server folder", () => {
  const extension = fs.mkdtempSync(path.join(os.tmpdir(), "nokta-ext-"));
  assert.equal(shippedWheel(extension), undefined);
  fs.mkdirSync(path.join(extension, "server"));
  fs.writeFileSync(path.join(extension, "server", "nokta-0.2.0-py3-none-any.whl"), "");
  assert.equal(shippedWheel(extension), path.join(extension, "server", "nokta-0.2.0-py3-none-any.whl"));
});

test("the real runner gives the exit code and the output, and rejects a missing program", async () => {
  const lines: string[] = [];
  const run = spawnRunner((line) => lines.push(line));
  assert.equal(await run(process.execPath, ["-e", "console.log('one\\ntwo'); process.exit(3)"]), 3);
  assert.deepEqual(lines.slice(1), ["one", "two"]);
  await assert.rejects(run("/no/such/program", []), /ENOENT/);
});

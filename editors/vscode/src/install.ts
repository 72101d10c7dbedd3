// Installing the server from the extension: a private virtual environment in the extension's
// global storage, into which pip installs the nokta wheel shipped in the .vsix (its
// dependencies come from the package index). The environment is used only once a marker file,
// written last, names the wheel it was made from: a failed or older install is never started.
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";

/** Runs a program to its end and gives its exit code; rejects when it cannot be started. */
export type Run = (command: string, args: string[]) => Promise<number>;

export class InstallFailed extends Error {}

export interface Install {
  storage: string; // the extension's global storage folder
  wheel: string; // the nokta wheel to install
  pythons: string[]; // interpreters to make the environment with, best first
  pipArgs: string[]; // nokta.server.installArgs, before the wheel on pip's command line
  run: Run;
  step: (message: string) => void; // progress, one message a step
  platform?: NodeJS.Platform;
}

const MARKER = "installed-from";
const PYTHON_VERSION_CHECK = "import sys; sys.exit(sys.version_info < (3, 11))";

const environment = (storage: string) => path.join(storage, "server");

function executableIn(venv: string, name: string, platform: NodeJS.Platform): string {
  return platform === "win32" ? path.join(venv, "Scripts", `${name}.exe`) : path.join(venv, "bin", name);
}

/** The nokta wheel in the extension's `server` folder, if the .vsix ships one. */
export function shippedWheel(extensionPath: string): string | undefined {
  const folder = path.join(extensionPath, "server");
  try {
    const name = fs.readdirSync(folder).find((file) => /^nokta-.+\.whl$/.test(file));
    return name && path.join(folder, name);
  } catch {
    return undefined;
  }
}

/** `nokta-lsp` of a finished install from this wheel, or undefined. */
export function installedServer(
  storage: string,
  wheel: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const venv = environment(storage);
  try {
    const source = fs.readFileSync(path.join(venv, MARKER), "utf8");
    return source === path.basename(wheel) ? executableIn(venv, "nokta-lsp", platform) : undefined;
  } catch {
    return undefined;
  }
}

/** Makes the private environment, installs the wheel, checks the server; returns its path. */
export async function installServer(install: Install): Promise<string> {
  const platform = install.platform ?? process.platform;
  const python = await findPython(install);
  const venv = environment(install.storage);
  fs.rmSync(venv, { recursive: true, force: true });
  try {
    install.step(`virtual environment (${python})`);
    await mustRun(install.run, python, ["-m", "venv", venv],
      `"${python} -m venv" failed (on Debian and Ubuntu: apt install python3-venv)`);
    install.step("pip install nokta");
    const pip = ["-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off",
      ...install.pipArgs, install.wheel];
    await mustRun(install.run, executableIn(venv, "python", platform), pip,
      "pip could not install nokta; its messages are in the Nokta output " +
        "(extra pip arguments go in the setting nokta.server.installArgs)");
    install.step("checking nokta-lsp");
    const server = executableIn(venv, "nokta-lsp", platform);
    await mustRun(install.run, server, ["--version"], "the installed nokta-lsp does not run");
    fs.writeFileSync(path.join(venv, MARKER), path.basename(install.wheel));
    return server;
  } catch (error) {
    fs.rmSync(venv, { recursive: true, force: true });
    throw error;
  }
}

/** Interpreters to make the environment with: the one selected in VS Code, then PATH's. */
export function pythonsToTry(selected?: string, platform: NodeJS.Platform = process.platform): string[] {
  return [...(selected ? [selected] : []), ...(platform === "win32" ? ["python"] : ["python3", "python"])];
}

async function findPython({ pythons, run }: Install): Promise<string> {
  for (const python of pythons) {
    const code = await run(python, ["-c", PYTHON_VERSION_CHECK]).catch(() => undefined);
    if (code === 0) return python;
  }
  throw new InstallFailed(
    `No Python 3.11 or newer found (tried ${pythons.join(", ")}). Install Python, or select ` +
      "an interpreter in the Python extension, then run Nokta: Restart Language Server.",
  );
}

async function mustRun(run: Run, command: string, args: string[], failure: string): Promise<void> {
  let code: number;
  try {
    code = await run(command, args);
  } catch (error) {
    throw new InstallFailed(`${failure}: ${error instanceof Error ? error.message : error}`);
  }
  if (code !== 0) throw new InstallFailed(`${failure} (exit code ${code})`);
}

/** A Run that spawns the program and passes its output, line by line, to `log`. */
export function spawnRunner(log: (line: string) => void): Run {
  return (command, args) =>
    new Promise((resolve, reject) => {
      log(`> ${command} ${args.join(" ")}`);
      const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
      const forward = (data: Buffer) => String(data).trimEnd().split(/\r?\n/).forEach((line) => log(line));
      child.stdout.on("data", forward);
      child.stderr.on("data", forward);
      child.on("error", reject);
      child.on("close", (code) => resolve(code ?? 1));
    });
}

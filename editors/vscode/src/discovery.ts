// Finding the `nokta-lsp` executable, in this order: nokta.server.path, the Python environment
// selected in the Python extension, the editor's VIRTUAL_ENV and CONDA_PREFIX, a workspace
// .venv (or venv), PATH, then the server the extension installed itself (install.ts).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type * as vscode from "vscode";

export interface Where {
  configured?: string; // nokta.server.path
  python?: string; // interpreter of the Python environment selected in VS Code
  pathEnv?: string; // the PATH variable
  virtualEnv?: string; // the editor process's VIRTUAL_ENV
  condaPrefix?: string; // … and CONDA_PREFIX
  workspaceFolders?: string[]; // searched for .venv and venv
  installed?: string; // the nokta-lsp the extension installed, if any
  platform?: NodeJS.Platform;
  isExecutable?: (file: string) => boolean;
}

export class ServerNotFound extends Error {}

export function findServer(where: Where): string {
  const platform = where.platform ?? process.platform;
  const isExecutable = where.isExecutable ?? executable;
  const names = platform === "win32" ? ["nokta-lsp.exe", "nokta-lsp.cmd"] : ["nokta-lsp"];

  if (where.configured) {
    const file = where.configured.replace(/^~(?=$|[/\\])/, os.homedir());
    if (isExecutable(file)) return file;
    throw new ServerNotFound(
      `nokta.server.path is set to "${where.configured}", but that is not an executable file. ` +
        "Fix the setting, or clear it to use the nokta-lsp of the selected Python environment.",
    );
  }
  const paths = platform === "win32" ? path.win32 : path.posix;
  const dirs: string[] = [];
  if (where.python) {
    const bin = paths.dirname(where.python);
    dirs.push(bin, ...(platform === "win32" ? [paths.join(bin, "Scripts")] : []));
  }
  const environments = [where.virtualEnv, where.condaPrefix].filter((root): root is string => !!root);
  for (const folder of where.workspaceFolders ?? []) {
    environments.push(paths.join(folder, ".venv"), paths.join(folder, "venv"));
  }
  dirs.push(...environments.map((root) => paths.join(root, platform === "win32" ? "Scripts" : "bin")));
  const separator = platform === "win32" ? ";" : ":";
  dirs.push(...(where.pathEnv ?? "").split(separator).filter(Boolean));
  for (const dir of dirs) {
    for (const name of names) {
      const file = paths.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  if (where.installed && isExecutable(where.installed)) return where.installed;
  const env = where.python ? ` (selected Python: ${where.python})` : "";
  throw new ServerNotFound(
    `Cannot find the nokta-lsp language server in the selected Python environment${env}, ` +
      "VIRTUAL_ENV, CONDA_PREFIX, a workspace .venv or on PATH. " +
      'Choose "Install nokta language server" to install it for this editor, install nokta in ' +
      'one of those ("pip install nokta-*.whl"), or set nokta.server.path to the nokta-lsp executable.',
  );
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The part of the Python extension's API used here (ms-python.python, `environments`). */
interface PythonApi {
  environments: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
    resolveEnvironment(
      env: { path: string },
    ): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

type Extensions = Pick<typeof vscode.extensions, "getExtension">;

async function pythonApi(extensions: Extensions): Promise<PythonApi | undefined> {
  const extension = extensions.getExtension<PythonApi>("ms-python.python");
  if (!extension) return undefined;
  const api = extension.isActive ? extension.exports : await extension.activate();
  return api?.environments ? api : undefined; // older Python extensions lack `environments`
}

/** Interpreter of the environment selected in the Python extension, if it is installed. */
export async function selectedPython(
  extensions: Extensions,
  resource?: vscode.Uri,
): Promise<string | undefined> {
  try {
    const api = await pythonApi(extensions);
    if (!api) return undefined;
    const env = await api.environments.resolveEnvironment(
      api.environments.getActiveEnvironmentPath(resource),
    );
    return env?.executable.uri?.fsPath;
  } catch {
    return undefined; // the Python extension failed: look on PATH
  }
}

/** Calls `listener` when another Python environment is selected. */
export async function onPythonChange(
  extensions: Extensions,
  listener: () => void,
): Promise<vscode.Disposable | undefined> {
  try {
    return (await pythonApi(extensions))?.environments.onDidChangeActiveEnvironmentPath(listener);
  } catch {
    return undefined;
  }
}

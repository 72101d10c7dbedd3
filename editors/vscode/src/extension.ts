import * as vscode from "vscode";
import {
  ClientCapabilities,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  FeatureState,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  StaticFeature,
} from "vscode-languageclient/node";
import { ServerNotFound, findServer, onPythonChange, selectedPython } from "./discovery";
import { InstallFailed, installServer, installedServer, pythonsToTry, shippedWheel, spawnRunner } from "./install";
import {
  RESTART_KEYS,
  SECTION,
  configurationResponse,
  documentSelector,
  serverSettings,
} from "./settings";
import { CAPABILITY, NOTIFICATION, ServerStatus, statusItem, toggleCommand } from "./status";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let extension: vscode.ExtensionContext;
let installing = false; // one install at a time; no new offer while it runs
let statusBar: vscode.StatusBarItem;
let serverStatus: ServerStatus | undefined;

const INSTALL = "Install nokta language server";

const config = (scopeUri?: string) =>
  vscode.workspace.getConfiguration(SECTION, scopeUri ? vscode.Uri.parse(scopeUri) : undefined);

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extension = context;
  output = vscode.window.createOutputChannel("Nokta");
  statusBar = vscode.window.createStatusBarItem("nokta.status", vscode.StatusBarAlignment.Right, 100);
  statusBar.name = "Nokta";
  context.subscriptions.push(
    output,
    statusBar,
    vscode.commands.registerCommand("nokta.restartServer", restart),
    vscode.commands.registerCommand("nokta.showOutput", () => output.show()),
    vscode.commands.registerCommand("nokta.togglePause", async () =>
      showStatus(await serverCommand(toggleCommand(serverStatus))),
    ),
    vscode.commands.registerTextEditorCommand("nokta.editor.restoreDocument", (editor) =>
      serverCommand("nokta.restoreDocument", { uri: editor.document.uri.toString() }),
    ),
    vscode.commands.registerTextEditorCommand("nokta.editor.restoreSelection", (editor) =>
      serverCommand("nokta.restoreSelection", {
        uri: editor.document.uri.toString(),
        range: client?.code2ProtocolConverter.asRange(editor.selection),
      }),
    ),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
        await restart();
      } else if (event.affectsConfiguration(SECTION) && client?.isRunning()) {
        // The server reloads its model itself when backend, modelPath or device change.
        await client.sendNotification(DidChangeConfigurationNotification.type, {
          settings: { [SECTION]: serverSettings(config()) },
        });
      }
    }),
  );
  const python = await onPythonChange(vscode.extensions, () => {
    if (!config().get<string>("server.path")) void restart();
  });
  if (python) context.subscriptions.push(python);
  // Restarting is the single entry point, so a failed start is reported like any other.
  await restart();
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}

async function restart(): Promise<void> {
  if (client?.needsStop()) await client.stop();
  client = undefined;
  statusBar.hide(); // until the new server says how it is
  const python = await selectedPython(vscode.extensions, vscode.workspace.workspaceFolders?.[0]?.uri);
  const wheel = shippedWheel(extension.extensionPath);
  let command: string;
  try {
    command = findServer({
      configured: config().get<string>("server.path"),
      python,
      pathEnv: process.env.PATH,
      virtualEnv: process.env.VIRTUAL_ENV,
      condaPrefix: process.env.CONDA_PREFIX,
      workspaceFolders: vscode.workspace.workspaceFolders?.map((folder) => folder.uri.fsPath),
      installed: wheel && installedServer(extension.globalStorageUri.fsPath, wheel),
    });
  } catch (error) {
    if (!(error instanceof ServerNotFound)) throw error;
    output.appendLine(error.message);
    // Not awaited: activation does not wait for the user's answer.
    void serverMissing(error.message, config().get<string>("server.path") ? undefined : wheel, python);
    return;
  }
  output.appendLine(`Starting ${command} --stdio`);
  const serverOptions: ServerOptions = { command, args: ["--stdio"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(config()),
    initializationOptions: serverSettings(config()),
    outputChannel: output,
    traceOutputChannel: output,
    middleware: {
      workspace: { configuration: (params) => configurationResponse(params.items, config) },
    },
  };
  client = new LanguageClient("nokta", "Nokta", serverOptions, clientOptions);
  client.registerFeature(statusFeature);
  client.onNotification(NOTIFICATION, showStatus);
  client.onDidChangeState(({ newState }) => newState === State.Stopped && statusBar.hide());
  try {
    await client.start();
  } catch (error) {
    output.appendLine(`The server did not start: ${error}`);
    void vscode.window.showErrorMessage(`Nokta: the server did not start (${error}).`, "Show Output")
      .then((choice) => choice && output.show());
  }
}

/** Offers to open the setting and, when the .vsix ships a wheel, to install the server. */
async function serverMissing(message: string, wheel?: string, python?: string): Promise<void> {
  if (installing) return;
  const choice = await vscode.window.showErrorMessage(message, ...(wheel ? [INSTALL] : []), "Open Settings");
  if (choice === "Open Settings") {
    await vscode.commands.executeCommand("workbench.action.openSettings", "nokta.server");
  } else if (choice === INSTALL && wheel && !installing) {
    installing = true;
    await installAndStart(wheel, python).finally(() => (installing = false));
  }
}

async function installAndStart(wheel: string, python?: string): Promise<void> {
  const options = { location: vscode.ProgressLocation.Notification, title: "Installing nokta" };
  try {
    const server = await vscode.window.withProgress(options, (progress) =>
      installServer({
        storage: extension.globalStorageUri.fsPath,
        wheel,
        pythons: pythonsToTry(python),
        pipArgs: config().get<string[]>("server.installArgs") ?? [],
        run: spawnRunner((line) => output.appendLine(line)),
        step: (message) => {
          output.appendLine(`Installing the server: ${message}`);
          progress.report({ message });
        },
      }),
    );
    output.appendLine(`Installed ${server}`);
  } catch (error) {
    if (!(error instanceof InstallFailed)) throw error;
    output.appendLine(error.message);
    void vscode.window.showErrorMessage(`Nokta: ${error.message}`, "Show Output")
      .then((choice) => choice && output.show());
    return;
  }
  await restart();
}

/** Runs a server command, with one object argument (`{ uri, range? }`) or none; returns its answer. */
async function serverCommand<T>(command: string, argument?: object): Promise<T | undefined> {
  if (!client?.isRunning()) {
    void vscode.window.showWarningMessage("Nokta: the language server is not running.");
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: argument ? [argument] : [] });
}

/** Asks the server for its `nokta/status` notification (a client capability). */
const statusFeature: StaticFeature = {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.experimental = { ...(capabilities.experimental as object), [CAPABILITY]: true };
  },
  initialize(): void {},
  getState: (): FeatureState => ({ kind: "static" }),
  clear(): void {},
};

function showStatus(status: ServerStatus | undefined): void {
  if (!status) return;
  serverStatus = status;
  const item = statusItem(status);
  statusBar.text = item.text;
  statusBar.tooltip = item.tooltip;
  statusBar.command = item.command;
  statusBar.show();
}

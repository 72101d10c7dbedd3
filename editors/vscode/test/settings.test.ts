import assert from "node:assert/strict";
import { test } from "node:test";
import pkg from "../package.json";
import {
  Configuration,
  RESTART_KEYS,
  SERVER_KEYS,
  configurationResponse,
  documentSelector,
  serverSettings,
  userSet,
} from "../src/settings";

/** A stub of vscode.WorkspaceConfiguration: set values over package.json's defaults. */
function stubConfig(values: Record<string, unknown> = {}): Configuration {
  const properties = pkg.contributes.configuration.properties as Record<string, { default?: unknown }>;
  return {
    get: <T>(key: string) => (key in values ? values[key] : properties[`nokta.${key}`]?.default) as T,
  };
}

test("server keys are package.json's settings without the client-only ones", () => {
  assert.ok(SERVER_KEYS.includes("fileTypes"));
  assert.ok(SERVER_KEYS.includes("maxLineLength"));
  assert.ok(!SERVER_KEYS.includes("server.path"));
  assert.ok(!SERVER_KEYS.includes("server.installArgs"));
  assert.ok(!SERVER_KEYS.includes("trace.server"));
  assert.equal(SERVER_KEYS.length, Object.keys(pkg.contributes.configuration.properties).length - 3);
});

test("the settings sent to the server hold every server key and nothing else", () => {
  const settings = serverSettings(stubConfig({ backend: "ngram", "server.path": "/bin/x" }));
  assert.deepEqual(Object.keys(settings), SERVER_KEYS);
  assert.equal(settings.backend, "ngram");
  assert.equal(settings.severity, "information");
  assert.equal(settings.confidenceThreshold, 0.85);
});

test("keys the user did not set are sent as null, so the repository's configuration holds", () => {
  const config: Configuration = {
    get: <T>(key: string) => (key === "severity" ? "hint" : key === "debounceMs" ? 200 : undefined) as T,
    inspect: (key: string) =>
      key === "severity"
        ? { key, defaultValue: "information", workspaceFolderValue: "hint" }
        : { key, defaultValue: 200 },
  };
  assert.deepEqual(serverSettings(config), { severity: "hint", debounceMs: null });
  assert.ok(userSet(config, "severity") && !userSet(config, "debounceMs"));
});

test("keys without a value are left out", () => {
  const settings = serverSettings({ get: <T>(key: string) => (key === "debounceMs" ? 50 : undefined) as T });
  assert.deepEqual(settings, { debounceMs: 50 });
});

test("workspace/configuration is answered per item and scope", () => {
  const scopes: (string | undefined)[] = [];
  const answer = configurationResponse(
    [
      { section: "nokta", scopeUri: "file:///a" },
      { section: "nokta.severity" },
      { section: "nokta.server.path" },
      { section: "editor" },
    ],
    (scopeUri) => {
      scopes.push(scopeUri);
      return stubConfig({ severity: scopeUri ? "hint" : "error" });
    },
  );
  assert.equal((answer[0] as Record<string, unknown>).severity, "hint");
  assert.equal(answer[1], "error");
  assert.deepEqual(answer.slice(2), [null, null]);
  assert.deepEqual(scopes, ["file:///a", undefined]);
});

test("documents are selected by language, or all files with checkCodeComments", () => {
  const prose = documentSelector(stubConfig({ fileTypes: ["markdown"] }));
  assert.deepEqual(prose, [
    { scheme: "file", language: "markdown" },
    { scheme: "untitled", language: "markdown" },
  ]);
  const all = documentSelector(stubConfig({ checkCodeComments: true }));
  assert.deepEqual(all, [{ scheme: "file" }, { scheme: "untitled" }]);
});

test("the extension activates on the default file types only", () => {
  const fileTypes = stubConfig().get<string[]>("fileTypes") ?? [];
  assert.deepEqual(pkg.activationEvents, fileTypes.map((language) => `onLanguage:${language}`));
});

test("restart keys are settings of package.json", () => {
  for (const key of RESTART_KEYS) {
    assert.ok(`nokta.${key}` in pkg.contributes.configuration.properties, key);
  }
});

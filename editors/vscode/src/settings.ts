// Server settings, as VS Code holds them under `nokta.*` and the server reads them.
// package.json is the list: every `nokta.<key>` but the client-only ones goes to the server.
import type { ConfigurationItem } from "vscode-languageclient";
import pkg from "../package.json";

export const SECTION = "nokta";
const CLIENT_ONLY = ["server", "trace"]; // nokta.server.*, nokta.trace.*: the server's CLIENT_ONLY_KEYS

export const SERVER_KEYS: readonly string[] = Object.keys(
  pkg.contributes.configuration.properties,
)
  .map((name) => name.slice(SECTION.length + 1))
  .filter((key) => !CLIENT_ONLY.includes(key.split(".")[0]));

/** Settings whose change needs a new client: another executable or other documents. */
export const RESTART_KEYS = ["server.path", "fileTypes", "checkCodeComments"];

/** The part of vscode.WorkspaceConfiguration that is read here. */
export interface Configuration {
  get<T>(key: string): T | undefined;
  /** The value in each scope (`defaultValue`, `globalValue`, `workspaceValue`, …). */
  inspect?(key: string): Record<string, unknown> | undefined;
}

/** Whether the user set `key` in some scope, rather than leaving it at its default. */
export function userSet(config: Configuration, key: string): boolean {
  const scopes = config.inspect?.(key);
  if (!scopes) return true; // no scopes to tell by: the value counts as set
  return Object.entries(scopes).some(
    ([scope, value]) => scope.endsWith("Value") && !scope.startsWith("default") && value !== undefined,
  );
}

/**
 * The server's settings object: every server key that has a value, `null` for those the
 * user did not set, so that a repository's configuration file (.nokta.toml) holds for them.
 */
export function serverSettings(config: Configuration): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const key of SERVER_KEYS) {
    const value = config.get(key);
    if (value !== undefined) settings[key] = userSet(config, key) ? value : null;
  }
  return settings;
}

/** The answer to workspace/configuration: the settings for `nokta`, null for sections not ours. */
export function configurationResponse(
  items: ConfigurationItem[],
  configFor: (scopeUri?: string) => Configuration,
): unknown[] {
  return items.map(({ section, scopeUri }) => {
    if (section === SECTION) return serverSettings(configFor(scopeUri));
    const key = section?.startsWith(SECTION + ".") ? section.slice(SECTION.length + 1) : "";
    return SERVER_KEYS.includes(key) ? (configFor(scopeUri).get(key) ?? null) : null;
  });
}

/** Documents the client sends to the server. */
export function documentSelector(config: Configuration): { scheme: string; language?: string }[] {
  if (config.get<boolean>("checkCodeComments")) {
    return [{ scheme: "file" }, { scheme: "untitled" }];
  }
  const languages = config.get<string[]>("fileTypes") ?? [];
  return languages.flatMap((language) => [
    { scheme: "file", language },
    { scheme: "untitled", language },
  ]);
}

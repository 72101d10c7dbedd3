// The status bar item: the server's state (its `nokta/status` notification), a click
// pausing or resuming checking and autocorrect.

/** What the server says: `nokta.status`'s answer and the `nokta/status` notification. */
export interface ServerStatus {
  state: "loading" | "ready" | "paused" | "failed";
  model?: string | null;
}

export const NOTIFICATION = "nokta/status";
/** The client capability that asks the server for the notification. */
export const CAPABILITY = "noktaStatus";

/** What the item shows for a state, and the command a click runs. */
export function statusItem(status: ServerStatus): { text: string; tooltip: string; command: string } {
  const model = status.model ? ` with the ${status.model} model` : "";
  switch (status.state) {
    case "loading":
      return { text: "$(sync~spin) nokta", tooltip: "Nokta: loading the model", command: "nokta.togglePause" };
    case "ready":
      return { text: "$(check) nokta", tooltip: `Nokta: checking${model}. Click to pause.`, command: "nokta.togglePause" };
    case "paused":
      return { text: "$(debug-pause) nokta paused", tooltip: "Nokta: paused. Click to resume.", command: "nokta.togglePause" };
    default:
      return { text: "$(error) nokta", tooltip: "Nokta: no model could be loaded. Click for the output.", command: "nokta.showOutput" };
  }
}

/** The server command a click sends in a state: pause, or resume when paused. */
export function toggleCommand(status: ServerStatus | undefined): string {
  return status?.state === "paused" ? "nokta.resume" : "nokta.pause";
}

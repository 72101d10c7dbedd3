import assert from "node:assert/strict";
import { test } from "node:test";
import pkg from "../package.json";
import { statusItem, toggleCommand } from "../src/status";

test("the item shows each state and a click pauses, resumes or opens the output", () => {
  assert.deepEqual(statusItem({ state: "ready", model: "default" }), {
    text: "$(check) nokta",
    tooltip: "Nokta: checking with the default model. Click to pause.",
    command: "nokta.togglePause",
  });
  assert.equal(statusItem({ state: "loading" }).text, "$(sync~spin) nokta");
  assert.equal(statusItem({ state: "paused", model: "default" }).text, "$(debug-pause) nokta paused");
  assert.equal(statusItem({ state: "failed" }).command, "nokta.showOutput");
  assert.equal(toggleCommand({ state: "paused" }), "nokta.resume");
  assert.equal(toggleCommand({ state: "ready" }), "nokta.pause");
  assert.equal(toggleCommand(undefined), "nokta.pause");
});

test("the commands a click runs are contributed to the palette", () => {
  const commands = pkg.contributes.commands.map((command) => command.command);
  for (const state of ["ready", "paused", "failed"] as const) {
    assert.ok(commands.includes(statusItem({ state }).command));
  }
});

// Drives VS Code (code-server) in Debian's Chromium through one session with nokta:
// squiggles and inlay hints (one applied by a double-click, then undone), the status bar
// item pausing and resuming checking, a file not open in the Problems view (workspace
// diagnostics), two quick fixes in quick succession, a changed setting, the restore
// command, autocorrect as you type, the word being typed not flagged, fix-all on save,
// the output.
// With --install, no server is installed: it clicks "Install nokta language server" first.
// Usage: node drive.js URL SCREENSHOT_DIR [--install]; prints what it saw as one JSON object.
const { chromium } = require("playwright-core");

const [url, shots, install] = process.argv.slice(2);
const text = async (locator) => (await locator.innerText()).replace(/\u00a0/g, " ");
// Inlay hints are drawn as text injected into the line (spans of a "dyn-rule" class).
const HINTS = ".monaco-editor .view-lines span[class*='dyn-rule']";
const editorText = (page) =>
  page.locator(".monaco-editor .view-lines").evaluate((lines) =>
    [...lines.querySelectorAll(".view-line")]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
      .map((line) => {
        const copy = line.cloneNode(true);
        copy.querySelectorAll("span[class*='dyn-rule']").forEach((hint) => hint.remove());
        return copy.textContent.replace(/\u00a0/g, " ");
      })
      .join("\n")
      .replace(/\n+$/, ""),
  );
const hints = async (page) =>
  (await page.locator(HINTS).allInnerTexts()).map((hint) => hint.replace(/\u00a0/g, " ")).filter((hint) => hint.startsWith("→"));
const statusItem = (page) => page.locator(".statusbar-item", { hasText: /nokta/ });

async function waitFor(what, condition, ms = 30000) {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Ctrl+. opens the quick-fix menu once the editor has the code actions; under load the
// first press may come before them ("No code actions available"), so it is pressed again.
async function openQuickFixes(page, menu) {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Control+.");
    try {
      await menu.waitFor({ timeout: 15000 });
      return;
    } catch (error) {
      if (attempt === 4) throw error;
      await page.keyboard.press("Escape");
    }
  }
}

async function runCommand(page, title) {
  await page.keyboard.press("F1");
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`);
  await page.keyboard.press("Enter");
}

async function installServer(page, seen) {
  const button = page.getByRole("button", { name: "Install nokta language server" });
  await button.waitFor({ timeout: 60000 });
  seen.missingServer = await text(page.locator(".notification-toast", { has: button }));
  await page.screenshot({ path: `${shots}/0-server-missing.png` });
  await button.click();
  const progress = page.locator(".notification-toast").getByText("Installing nokta");
  await progress.first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: `${shots}/0-installing.png` });
  await progress.first().waitFor({ state: "detached", timeout: 600000 }); // pip installs nokta's dependencies
}

async function session(page, seen) {
  await page.goto(url);
  await page.locator(".explorer-folders-view").getByText("note.txt").click({ timeout: 60000 });
  if (install) await installServer(page, seen);
  await page.waitForSelector(".squiggly-info", { timeout: 90000 });
  seen.squiggles = await page.locator(".squiggly-info").count();
  await waitFor("inlay hints", async () => (await hints(page)).length === 3);
  seen.hints = await hints(page);
  await page.screenshot({ path: `${shots}/1-diagnostics.png` });
  // A double-click on a hint applies its edit; Ctrl+Z takes it back.
  await page.locator(HINTS, { hasText: "güzel" }).dblclick();
  await waitFor("the hint applied", async () => (await editorText(page)).includes("güzel"));
  seen.afterHint = await editorText(page);
  await page.keyboard.press("Control+z");
  await waitFor("the hint undone", async () => (await editorText(page)) === "Bugun hava cok guzel.");
  await waitFor("three hints again", async () => (await hints(page)).length === 3);

  // The status bar item: ready; a click pauses checking (the squiggles go), another resumes it.
  await waitFor("the status item", async () => (await statusItem(page).count()) === 1);
  seen.status = [(await text(statusItem(page))).trim()];
  await statusItem(page).click();
  await waitFor("paused", async () => (await text(statusItem(page))).includes("paused"));
  await waitFor("no squiggles while paused", async () => (await page.locator(".squiggly-info").count()) === 0);
  seen.status.push((await text(statusItem(page))).trim());
  await page.screenshot({ path: `${shots}/1-paused.png` });
  await statusItem(page).click();
  await waitFor("resumed", async () => !(await text(statusItem(page))).includes("paused"));
  await waitFor("squiggles again", async () => (await page.locator(".squiggly-info").count()) === 3);
  seen.status.push((await text(statusItem(page))).trim());

  // The file not open is in the Problems view (workspace diagnostics).
  await runCommand(page, "View: Focus Problems");
  const problems = page.locator(".markers-panel");
  await waitFor("the workspace's problems", async () => (await text(problems)).includes("other.md"));
  seen.problems = await text(problems);
  await page.screenshot({ path: `${shots}/1-problems.png` });
  await page.locator(".tab").getByText("note.txt").click();

  await page.locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("Control+Home");
  const menu = page.locator(".action-widget");
  await openQuickFixes(page, menu);
  seen.quickFixes = (await menu.locator(".action-label, .title").allInnerTexts()).filter(Boolean);
  await page.screenshot({ path: `${shots}/2-quick-fix.png` });
  await page.keyboard.press("Enter"); // the first entry, the preferred fix
  await waitFor("the quick fix", async () => (await editorText(page)).startsWith("Bugün"));
  seen.afterQuickFix = await editorText(page);
  // At once a second fix, on "cok", before the server has published for the new text.
  await page.keyboard.press("Home");
  for (let i = 0; i < 12; i++) await page.keyboard.press("ArrowRight");
  await openQuickFixes(page, menu);
  await page.keyboard.press("Enter");
  await waitFor("the second fix", async () => (await editorText(page)).includes("çok"));
  seen.afterSecondFix = await editorText(page);

  // A setting changed in the Settings editor reaches the running server.
  await runCommand(page, "Preferences: Open User Settings");
  await page.waitForSelector(".settings-editor");
  await page.keyboard.type("nokta.severity");
  await page.locator('select[aria-label="nokta.severity"]').selectOption("warning");
  await page.screenshot({ path: `${shots}/3-setting.png` });
  await page.locator(".tab").getByText("note.txt").click();
  await page.waitForSelector(".squiggly-warning", { timeout: 30000 });
  seen.warnings = await page.locator(".squiggly-warning").count();

  await runCommand(page, "Nokta: Restore Turkish Diacritics in Document");
  await waitFor("the restored document", async () => (await editorText(page)).includes("güzel"));
  seen.afterRestore = await editorText(page);
  await waitFor("no squiggles", async () => (await page.locator(".squiggly-warning").count()) === 0);

  // Autocorrect as you type (editor.formatOnType, which the extension turns on): a line in ASCII.
  await page.keyboard.press("Control+End");
  await page.keyboard.type("Yarin okula gidecegim.", { delay: 80 });
  await waitFor("autocorrect", async () => (await editorText(page)).includes("Yarın okula gideceğim."), 10000)
    .catch(() => {});
  seen.afterTyping = await editorText(page);
  // A word with no space or punctuation after it is not corrected yet, nor flagged while
  // it is being typed: fixed on save.
  await page.keyboard.press("Enter");
  await page.keyboard.type("ogrenci", { delay: 80 });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  seen.squigglesWhileTyping = await page.locator(".squiggly-warning").count();
  await page.keyboard.press("Control+S"); // settings.json asks for source.fixAll.nokta on save
  await waitFor("fix all on save", async () => (await editorText(page)).includes("öğrenci"));
  seen.afterSave = await editorText(page);
  await page.screenshot({ path: `${shots}/4-saved.png` });

  await runCommand(page, "Nokta: Show Output");
  const output = page.locator(".output-view, .panel .monaco-editor").first();
  await waitFor("the output channel", async () => (await text(output)).includes("nokta-lsp"));
  seen.output = await text(output);
  await page.screenshot({ path: `${shots}/5-output.png` });
}

(async () => {
  const seen = {};
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await session(page, seen);
  } catch (error) {
    seen.error = String(error);
    await page.screenshot({ path: `${shots}/error.png` });
  }
  console.log(JSON.stringify(seen));
  await browser.close();
})();

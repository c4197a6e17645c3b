/*
 * E2E scenario API — STABLE: other suites (skills, workflows, checkpoints) are written against it.
 *
 * A scenario is a file test/e2e/<name>.e2e.ts exporting
 *
 *     import type { ScenarioContext } from './lib';
 *     export async function scenario(t: ScenarioContext): Promise<void> { ... }
 *
 * `npm run test:e2e` builds, packages the .vsix, starts ONE code-server (real VS Code 1.100 workbench, the
 * .vsix installed) and runs every out/test/e2e/**\/*.e2e.js in sequence, each in a fresh browser context on a
 * FRESH temp copy of examples/demo-workspace (so a scenario may modify files). `npm run test:e2e -- <filter>`
 * runs only scenarios whose file name contains <filter>. A scenario fails by throwing (use node:assert/strict);
 * the runner then saves FAIL.png, prints the error and goes on with the next scenario.
 *
 * Before scenario(t) is called the workbench is loaded, the folder is open and Skillflow is active.
 *
 *   t.name                    scenario name (file name without .e2e.js)
 *   t.page                    playwright-core Page on the workbench
 *   t.workspace               absolute path of the opened folder (the copy of examples/demo-workspace)
 *   t.path(...segments)       absolute path inside t.workspace
 *   t.shot(name, { toast? })  screenshot → test-results/e2e/<scenario>/<NN>-<name>.png (returns the path). It FAILS
 *                             the scenario when the screen holds what the scenario did not ask for: a quick input
 *                             it did not open or drive (t.runCommand / t.quickInput.*) since the last shot with none
 *                             open, or a notification toast whose text neither `toast` (a RegExp) nor one given to
 *                             t.allowToast(re) matches
 *                             Before the picture it waits for the workbench's CSS animations to finish (settleAnimations:
 *                             no hover or toast caught half transparent while it fades in)
 *   t.runCommand(label)       closes an open quick input (Escape), F1, types `>label`, waits for the matching
 *                             row, Enter; returns when the palette closed or the command replaced it
 *   t.quickInput.widget       Locator of `.quick-input-widget` (palette, QuickPick and InputBox alike)
 *   t.quickInput.input        Locator of its text input
 *   t.quickInput.option(n)    Locator of the row whose accessible name contains n (string | RegExp); rows are
 *                             role=option, or role=checkbox in a multi-select QuickPick
 *   t.quickInput.pick(n)      waits for that row and clicks it (in a multi-select: toggles it)
 *   t.quickInput.accept()     presses Enter in the widget (accepts a multi-select, or the focused row)
 *   t.quickInput.waitForOpen() / waitForClosed()
 *   t.quickInput.submit(text) fills the input with text and presses Enter (InputBox answers, filters)
 *   t.quickInput.title()      the widget's title text ('' when none), e.g. a step counter "Code review (1/4)"
 *   t.openSidebar()           shows the Skillflow container (activity-bar tab "Skillflow"); returns the sidebar Locator
 *   t.view(title)             Locator of a view pane in the sidebar by its title: 'Skills' | 'Workflows' | 'Checkpoints'
 *   t.treeItem(name, view?)   Locator of a tree row (role treeitem) by accessible name (TreeItem
 *                             accessibilityInformation.label, else its label), optionally within a view
 *   t.timeTreeRow(prefix, write)  runs write() (a synchronous file-system change) and times it in the page until a
 *                             tree row whose accessible name starts with prefix is in the DOM (a MutationObserver, so
 *                             no polling interval counts) and until the frame after it; returns { inTreeMs, paintedMs }
 *                             counted from just before write(); fails after 10 s, or when such a row exists already
 *   t.notificationsContain(text, ms?)  opens the Notification Center, waits for text, hides it again
 *   t.problemsContain(text, ms?)       focuses the Problems view and waits for text in `.markers-panel`
 *   t.statusBarItem(id)       Locator `[id="skillflow.skillflow.<id>"]` (id as given to createStatusBarItem)
 *   t.openFile(relPath)       opens a file (workspace-relative or absolute) in an editor: Quick Open (Ctrl+P) with its
 *                             absolute path (looked up on disk, so a file written a moment ago is found too), the row
 *                             of exactly that file clicked (not the first row: Quick Open shows the recently opened
 *                             files until the lookup answers), then waits until the active tab is that file
 *   t.fakeClaudeLog()         text the stand-in `claude` (test/e2e/bin/claude) wrote during this scenario
 *   t.fakeClaudeCalls()       the same, parsed: one string[] of arguments per call
 *   t.fakeClaudeLogPath       that file's path (also $SKILLFLOW_FAKE_CLAUDE_LOG for code-server's terminals)
 *   t.home                    code-server's HOME (its own folder, shared by the scenarios of one run): a scenario may
 *                             write `~/.claude/skills/<x>` there for a personal skill, and must remove it again
 *   t.waitForFile(path, predicate?, ms?)  polls a file (absolute or workspace-relative) until it exists and
 *                             predicate(text) holds; returns the text
 *   t.log(msg)                prints a timestamped line under the scenario
 *
 * hoverWrapping(locator) (exported, not on `t`): the words a rendered hover cuts in two at a line break, and no-break
 * spaces between words (MarkdownString.appendText writes every space as &nbsp;, so lines break inside words).
 *
 * Timeouts: Playwright actions default to 30 s; `ms` arguments default to 15 s; a whole scenario 5 min
 * (SKILLFLOW_E2E_SCENARIO_TIMEOUT_MS).
 * Notes: the copy's non-terminal workflow runs have `updated_at` set to five minutes ago (so the PLAN run is live,
 * not stale). The fake claude log is emptied before each scenario; $SKILLFLOW_FAKE_CLAUDE_LOG is set in the
 * runner's process too. Toasts hide by themselves: assert notifications with t.notificationsContain. Tree rows,
 * Problems rows and QuickPick rows are virtualised: only visible rows exist in the DOM.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';

export interface QuickInput {
  widget: Locator;
  input: Locator;
  option(name: string | RegExp): Locator;
  pick(name: string | RegExp): Promise<void>;
  waitForOpen(): Promise<void>;
  waitForClosed(): Promise<void>;
  accept(): Promise<void>;
  submit(text: string): Promise<void>;
  title(): Promise<string>;
}

export interface ScenarioContext {
  name: string;
  page: Page;
  workspace: string;
  path(...segments: string[]): string;
  shot(name: string, expect?: { toast?: RegExp }): Promise<string>;
  /** From now on, a toast matching `text` may be on screen at a screenshot (a message the scenario brought up). */
  allowToast(text: RegExp): void;
  runCommand(label: string): Promise<void>;
  quickInput: QuickInput;
  openSidebar(): Promise<Locator>;
  view(title: string): Locator;
  treeItem(name: string | RegExp, view?: string): Locator;
  timeTreeRow(labelPrefix: string, write: () => void): Promise<{ inTreeMs: number; paintedMs: number }>;
  notificationsContain(text: string | RegExp, ms?: number): Promise<void>;
  problemsContain(text: string | RegExp, ms?: number): Promise<void>;
  statusBarItem(id: string): Locator;
  openFile(file: string): Promise<void>;
  fakeClaudeLog(): string;
  fakeClaudeCalls(): string[][];
  fakeClaudeLogPath: string;
  home: string;
  waitForFile(file: string, predicate?: (text: string) => boolean, ms?: number): Promise<string>;
  log(message: string): void;
}

export type Scenario = (t: ScenarioContext) => Promise<void>;

/** What the runner (scripts/test-e2e.mjs) knows about one scenario. */
export interface ScenarioSetup {
  name: string;
  page: Page;
  workspace: string;
  shotsDir: string;
  fakeClaudeLogPath: string;
  /** code-server's HOME. */
  home: string;
}

const DEFAULT_MS = 15_000;
const VIEWPORT_CENTER = { x: 900, y: 450 };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Builds the `t` object handed to a scenario. */
export function createScenarioContext(setup: ScenarioSetup): ScenarioContext {
  const { page, workspace, shotsDir, fakeClaudeLogPath, name, home } = setup;
  const started = Date.now();
  let shotCount = 0;
  let rowWatches = 0;

  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  const sidebar = page.locator('[id="workbench.parts.sidebar"]');
  const seconds = () => ((Date.now() - started) / 1000).toFixed(2);

  /** The scenario opened or drove a quick input since the last screenshot that showed none. */
  let drivingInput = false;
  const allowedToasts: RegExp[] = [];
  const quickInput: QuickInput = {
    widget,
    input,
    // Rows are role=option, or role=checkbox in a multi-select (canPickMany) QuickPick.
    option: (optionName) => {
      drivingInput = true;
      return widget.getByRole('option', { name: optionName }).or(widget.getByRole('checkbox', { name: optionName })).first();
    },
    async pick(optionName) {
      drivingInput = true;
      const row = quickInput.option(optionName);
      await row.waitFor();
      await row.click();
    },
    async waitForOpen() {
      drivingInput = true;
      await input.waitFor({ state: 'visible' });
    },
    async waitForClosed() {
      await widget.waitFor({ state: 'hidden' });
    },
    async accept() {
      drivingInput = true;
      await input.waitFor({ state: 'visible' });
      await input.press('Enter');
    },
    async submit(text) {
      drivingInput = true;
      await input.waitFor({ state: 'visible' });
      await input.fill(text);
      await page.keyboard.press('Enter');
    },
    async title() {
      drivingInput = true;
      const title = widget.locator('.quick-input-title');
      return (await title.isVisible()) ? (await title.innerText()).trim() : '';
    },
  };

  const runCommand = async (label: string) => {
    drivingInput = true;
    // F1 does not replace an open QuickPick/InputBox: close it first.
    for (let i = 0; i < 3 && (await widget.isVisible()); i++) {
      await page.keyboard.press('Escape');
      await sleep(100);
    }
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    const typed = `>${label}`;
    await input.fill(typed);
    await quickInput.option(new RegExp(escapeRegExp(label), 'i')).waitFor();
    await page.keyboard.press('Enter');
    // The palette closes, or the command replaces it with its own QuickPick/InputBox.
    const deadline = Date.now() + DEFAULT_MS;
    while (Date.now() < deadline) {
      if (!(await widget.isVisible()) || (await input.inputValue().catch(() => '')) !== typed) return;
      await sleep(50);
    }
    throw new Error(`command palette did not run "${label}"`);
  };

  const view = (title: string) =>
    sidebar.locator('.pane').filter({ has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(title)}$`, 'i') }) });

  const panelText = async (locator: Locator) => (await locator.isVisible() ? (await locator.innerText()).slice(0, 2000) : '(not visible)');

  const readFakeLog = () => {
    try {
      return fs.readFileSync(fakeClaudeLogPath, 'utf8');
    } catch {
      return '';
    }
  };

  const t: ScenarioContext = {
    name,
    page,
    workspace,
    fakeClaudeLogPath,
    home,
    path: (...segments) => path.join(workspace, ...segments),

    async shot(shotName, expect) {
      fs.mkdirSync(shotsDir, { recursive: true });
      const file = path.join(shotsDir, `${String(++shotCount).padStart(2, '0')}-${shotName.replace(/[^\w.-]+/g, '-')}.png`);
      await settleAnimations(page);
      await page.screenshot({ path: file });
      t.log(`screenshot ${path.relative(process.cwd(), file)}`);
      // A screenshot that passes while a stray box covers the screen proves nothing: what is on screen must be asked for.
      if (await widget.isVisible()) {
        if (!drivingInput) throw new Error(`screenshot ${path.basename(file)}: a quick input the scenario did not open is on screen: "${(await quickInput.title()) || (await widget.innerText()).slice(0, 120)}"`);
      } else {
        drivingInput = false;
      }
      const toasts = page.locator('.notifications-toasts .notification-toast');
      for (let i = 0; i < await toasts.count(); i++) {
        const toast = toasts.nth(i);
        if (!(await toast.isVisible())) continue;
        const text = (await toast.innerText()).replace(/\s+/g, ' ').trim();
        if (!expect?.toast?.test(text) && !allowedToasts.some((re) => re.test(text))) throw new Error(`screenshot ${path.basename(file)}: an unexpected notification is on screen: "${text.slice(0, 200)}"`);
      }
      return file;
    },

    allowToast(text) { allowedToasts.push(text); },

    runCommand,
    quickInput,

    async openSidebar() {
      const tab = page.locator('[id="workbench.parts.activitybar"]').getByRole('tab', { name: /^Skillflow/ });
      await tab.waitFor();
      // Clicking the selected tab would collapse the side bar, so only click when it is not showing.
      const showing = (await tab.getAttribute('aria-selected')) === 'true' && (await sidebar.isVisible());
      if (!showing) {
        await tab.click();
        await page.mouse.move(VIEWPORT_CENTER.x, VIEWPORT_CENTER.y); // no tab hover in screenshots
      }
      await sidebar.locator('[id="workbench.view.extension.skillflow"]').waitFor({ state: 'visible' });
      return sidebar;
    },

    view,
    treeItem: (itemName, viewTitle) => (viewTitle ? view(viewTitle) : page).getByRole('treeitem', { name: itemName }).first(),

    async timeTreeRow(labelPrefix, write) {
      const key = `skillflowTreeRow${++rowWatches}`;
      // Armed before the write: the observer sees the row the moment the workbench inserts or relabels it.
      await page.evaluate(({ key, prefix, ms }) => {
        const has = () => Array.from(document.querySelectorAll('[role="treeitem"][aria-label]')).some((el) => el.getAttribute('aria-label')?.startsWith(prefix));
        if (has()) throw new Error(`a tree row starting with ${prefix} is already shown`);
        (window as unknown as Record<string, unknown>)[key] = new Promise<{ inTree: number; painted: number }>((resolve, reject) => {
          const observer = new MutationObserver(() => {
            if (!has()) return;
            const inTree = Date.now();
            observer.disconnect();
            clearTimeout(timer);
            // The next frame's callbacks run before it is painted; the task after them runs once it is.
            requestAnimationFrame(() => setTimeout(() => resolve({ inTree, painted: Date.now() }), 0));
          });
          const timer = setTimeout(() => { observer.disconnect(); reject(new Error(`no tree row starting with ${prefix} within ${ms} ms`)); }, ms);
          observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
        });
      }, { key, prefix: labelPrefix, ms: 10_000 });
      const written = Date.now();
      write();
      const seen = await page.evaluate((k) => (window as unknown as Record<string, Promise<{ inTree: number; painted: number }>>)[k], key);
      return { inTreeMs: seen.inTree - written, paintedMs: seen.painted - written };
    },

    async notificationsContain(text, ms = DEFAULT_MS) {
      await runCommand('Notifications: Show Notifications');
      const center = page.locator('.notifications-center');
      try {
        await center.getByText(text).first().waitFor({ timeout: ms });
      } catch {
        throw new Error(`notifications do not contain ${String(text)}; the center shows: ${await panelText(center)}`);
      }
      await runCommand('Notifications: Hide Notifications');
    },

    async problemsContain(text, ms = DEFAULT_MS) {
      await runCommand('Problems: Focus on Problems View');
      const markers = page.locator('.markers-panel');
      try {
        await markers.getByText(text).first().waitFor({ timeout: ms });
      } catch {
        throw new Error(`Problems view does not contain ${String(text)}; it shows: ${await panelText(markers)}`);
      }
    },

    statusBarItem: (id) => page.locator(`[id="skillflow.skillflow.${id}"]`),

    async openFile(file) {
      const full = path.isAbsolute(file) ? file : path.join(workspace, file);
      const base = path.basename(full);
      const rel = path.relative(workspace, full);
      const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
      const folder = inside ? path.dirname(rel).split(path.sep).join('/') : undefined;
      // A Quick Open row is named "<file name> <folder relative to the workspace>, <section>" ("README.md, file
      // results" at the top level); outside the workspace only the file name is known.
      const rowName = new RegExp(`^${escapeRegExp(base)}${folder === undefined ? '\\b' : folder === '.' ? '(,|$)' : ` ${escapeRegExp(folder)}(,|$)`}`);
      for (let i = 0; i < 3 && (await widget.isVisible()); i++) {
        await page.keyboard.press('Escape');
        await sleep(100);
      }
      await page.keyboard.press('Control+P');
      await input.waitFor({ state: 'visible' });
      await input.fill(full);
      await quickInput.pick(rowName);
      await quickInput.waitForClosed();
      // The active tab shows the file name, and its folder when another open tab has the same name ("SKILL.md …/x").
      const parent = path.basename(path.dirname(full));
      await page.locator('.editor-group-container.active .tab.active')
        .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(base)}(\\s*\\S*${escapeRegExp(parent)})?\\s*$`) }).first().waitFor();
    },

    fakeClaudeLog: readFakeLog,
    fakeClaudeCalls() {
      const calls: string[][] = [];
      let current: string[] = [];
      for (const line of readFakeLog().split('\n')) {
        if (line === '---') {
          calls.push(current);
          current = [];
        } else if (line !== '' || current.length) current.push(line);
      }
      return calls;
    },

    async waitForFile(file, predicate = () => true, ms = DEFAULT_MS) {
      const full = path.isAbsolute(file) ? file : path.join(workspace, file);
      const deadline = Date.now() + ms;
      let last: string | undefined;
      for (;;) {
        try {
          last = fs.readFileSync(full, 'utf8');
          if (predicate(last)) return last;
        } catch {
          last = undefined;
        }
        if (Date.now() > deadline) {
          throw new Error(last === undefined ? `file ${full} did not appear within ${ms} ms` : `file ${full} did not reach the expected content within ${ms} ms; it has:\n${last.slice(0, 1500)}`);
        }
        await sleep(100);
      }
    },

    log(message) {
      console.log(`    [${name} +${seconds()}s] ${message}`);
    },
  };
  return t;
}

/** The remoteexthost.log files under a code-server user-data dir (one per extension host started). */
/**
 * Waits (at most 2 s) until the workbench's finite CSS animations and transitions have finished: a hover or a toast
 * caught while it fades in is drawn half transparent over the text under it.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() => Promise.race([
    Promise.all(document.getAnimations()
      .filter((a) => a.effect?.getTiming().iterations !== Infinity)
      .map((a) => a.finished.then(() => undefined, () => undefined))),
    new Promise((resolve) => setTimeout(resolve, 2_000)),
  ]));
}

/**
 * How a rendered hover wraps its text: `split` lists the words (3+ letters) that a line break cuts in two ("cu|tting",
 * what `&nbsp;` between every word causes), `nbspBetweenWords` counts no-break spaces between two words.
 */
export async function hoverWrapping(hover: Locator): Promise<{ split: string[]; nbspBetweenWords: number }> {
  return hover.evaluate((el) => {
    const split: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of (node.textContent ?? '').matchAll(/[A-Za-z]{3,}/g)) {
        const range = document.createRange();
        range.setStart(node, m.index ?? 0);
        range.setEnd(node, (m.index ?? 0) + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
    const nbspBetweenWords = ((el.textContent ?? '').match(/\w\u00a0\w/g) ?? []).length;
    return { split, nbspBetweenWords };
  });
}

export function extensionHostLogs(userDataDir: string): string[] {
  const logsDir = path.join(userDataDir, 'logs');
  const found: string[] = [];
  let sessions: string[] = [];
  try {
    sessions = fs.readdirSync(logsDir);
  } catch {
    return found;
  }
  for (const session of sessions) {
    let hosts: string[] = [];
    try {
      hosts = fs.readdirSync(path.join(logsDir, session)).filter((d) => d.startsWith('exthost'));
    } catch {
      continue;
    }
    for (const host of hosts) found.push(path.join(logsDir, session, host, 'remoteexthost.log'));
  }
  return found;
}

/**
 * Loads the workbench at `url` and waits until it is usable: the workbench DOM, the Skillflow activity-bar tab,
 * and (from a new extension host's log) the activation of skillflow.skillflow; then a short settle.
 */
export async function openWorkbench(page: Page, url: string, userDataDir: string, ms = 90_000): Promise<{ workbenchMs: number; readyMs: number }> {
  const before = new Set(extensionHostLogs(userDataDir));
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench').waitFor({ timeout: ms });
  const workbenchMs = Date.now() - t0;
  await page.locator('[id="workbench.parts.activitybar"]').getByRole('tab', { name: /^Skillflow/ }).waitFor({ timeout: ms });
  const deadline = t0 + ms;
  for (;;) {
    const activated = extensionHostLogs(userDataDir).some((file) => {
      if (before.has(file)) return false;
      try {
        return fs.readFileSync(file, 'utf8').includes('_doActivateExtension skillflow.skillflow');
      } catch {
        return false;
      }
    });
    if (activated) break;
    if (Date.now() > deadline) throw new Error(`Skillflow did not activate within ${ms} ms (see ${path.join(userDataDir, 'logs')})`);
    await sleep(100);
  }
  await sleep(750);
  return { workbenchMs, readyMs: Date.now() - t0 };
}

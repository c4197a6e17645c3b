/** Skills commands: Refresh, New Skill, Search Skills, Open, Reveal, Package, Copy Invocation, Run Script. */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillEntry } from '../../core/skillmd/model';
import { checkSkillName, scaffoldSkill } from '../../core/packaging/scaffold';
import { type PackageOptions, type PackageRefusal, packageSkill, uploadRefusal } from '../../core/packaging/package';
import { claudeFolderOf } from '../../core/discovery/discover';
import { scriptCommandLine, shellKindFor } from '../../core/base/shell';
import type { SkillsService } from './service';
import type { SkillsTreeProvider } from './tree';
import { entryLabel, searchOrder, type SkillsNode } from '../../core/catalog/treeModel';
import { runInTerminal } from '../util/terminal';
import { shortMessage } from '../adapters/ranges';

/** What the skill-targeted commands accept: a tree node, a Uri inside a skill, a skill folder path, or nothing (active editor / pick). */
type SkillArg = SkillsNode | vscode.Uri | string | undefined;

export interface NewSkillArgs { name?: string; parentDir?: string; description?: string }
export interface SearchArgs { value?: string }

function isNode(arg: unknown): arg is SkillsNode {
  return typeof arg === 'object' && arg !== null && 'kind' in arg && 'id' in arg;
}

/** What a step returns when the user pressed Back. */
const BACK = Symbol('back');

/** Puts the cursor on the description's value (selected, so typing replaces the TODO). */
function selectDescription(editor: vscode.TextEditor): void {
  const doc = editor.document;
  for (let line = 1; line < Math.min(doc.lineCount, 40); line++) {
    const text = doc.lineAt(line).text;
    if (text === '---') break;
    const m = /^description:\s*/.exec(text);
    if (!m) continue;
    const selection = new vscode.Selection(line, text.length, line, m[0].length);
    editor.selection = selection;
    editor.revealRange(selection);
    return;
  }
}

export class SkillCommands {
  constructor(
    private readonly service: SkillsService,
    private readonly log: vscode.LogOutputChannel,
    private readonly tree: SkillsTreeProvider,
  ) {}

  register(): vscode.Disposable {
    const r = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);
    return vscode.Disposable.from(
      r('skillflow.refresh', () => this.service.reload()),
      r('skillflow.newSkill', (args?: NewSkillArgs) => this.newSkill(args)),
      r('skillflow.searchSkills', (args?: SearchArgs) => this.searchSkills(args)),
      r('skillflow.openSkill', (arg?: SkillArg) => this.openSkill(arg)),
      r('skillflow.revealSkill', (arg?: SkillArg) => this.revealSkill(arg)),
      r('skillflow.packageSkill', (arg?: SkillArg, outDir?: string, opts?: PackageOptions) => this.packageSkill(arg, outDir, opts)),
      r('skillflow.copyInvocation', (arg?: SkillArg) => this.copyInvocation(arg)),
      r('skillflow.runScript', (arg?: SkillsNode | vscode.Uri) => this.runScript(arg)),
    );
  }

  /** Finds the skill a command is about; asks with a QuickPick when nothing identifies one. */
  private async resolveSkill(arg: SkillArg): Promise<SkillEntry | undefined> {
    this.service.ensureLoaded();
    const index = this.service.index;
    if (isNode(arg)) {
      if (arg.kind === 'skill' || arg.kind === 'file' || arg.kind === 'folder') return index.skillByDir(arg.dir);
      if (arg.kind === 'boundSkill' && arg.dir) return index.skillByDir(arg.dir);
      return undefined;
    }
    const file = arg instanceof vscode.Uri ? arg.fsPath : typeof arg === 'string' ? arg : vscode.window.activeTextEditor?.document.uri.fsPath;
    if (file) {
      const found = index.skillByDir(file) ?? index.skillContaining(file);
      if (found || arg) return found;
    }
    const picked = await vscode.window.showQuickPick(index.skills.map((s) => ({ label: s.name, description: s.invocation ?? undefined, detail: s.description, skill: s })), {
      placeHolder: 'Choose a skill', matchOnDescription: true, matchOnDetail: true,
    });
    return picked?.skill;
  }

  /**
   * New Skill: step 1 the name (validated as you type), step 2 where (project root or personal; Back returns to the
   * name); then scaffold, reveal and select the skill in the Skills tree, open SKILL.md with its TODO description
   * selected. Returns the new folder.
   */
  async newSkill(args: NewSkillArgs = {}): Promise<string | undefined> {
    let name = args.name?.trim();
    if (name !== undefined) {
      const invalid = checkSkillName(name);
      if (invalid) { void vscode.window.showErrorMessage(`New Skill: ${invalid}`); return undefined; }
    }
    const askName = name === undefined;
    let parentDir = args.parentDir;
    while (!parentDir) {
      if (name === undefined) {
        name = await this.askSkillName();
        if (name === undefined) return undefined;
      }
      const picked = await this.pickSkillsRoot(name, askName);
      if (picked === BACK) { this.lastName = name; name = undefined; continue; }
      if (!picked) return undefined;
      parentDir = picked;
    }
    this.lastName = undefined;
    const result = scaffoldSkill(this.service.fs, parentDir, name as string, { description: args.description });
    if (!result.ok) { void vscode.window.showErrorMessage(`New Skill: ${result.message}`); return undefined; }
    this.log.info(`created skill ${result.dir}`);
    const skillMd = path.join(result.dir, 'SKILL.md');
    this.service.notifyChanged(result.files.map((f) => path.isAbsolute(f) ? f : path.join(result.dir, f)).concat(skillMd));
    await this.tree.revealSkill(result.dir);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(skillMd), { preview: false });
    selectDescription(editor);
    return result.dir;
  }

  /** The name typed before Back, offered again on step 1. */
  private lastName: string | undefined;

  private askSkillName(): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = 'New Skill';
    box.step = 1;
    box.totalSteps = 2;
    box.prompt = 'Skill name: lower-case letters, digits and hyphens. A name starting with workflow- makes a workflow skill.';
    box.placeholder = 'my-skill';
    box.value = this.lastName ?? '';
    box.ignoreFocusOut = true;
    return this.runInput(box, (resolve) => [
      box.onDidChangeValue((value) => { box.validationMessage = value.trim() ? checkSkillName(value.trim()) : undefined; }),
      box.onDidAccept(() => {
        const value = box.value.trim();
        const invalid = checkSkillName(value);
        if (invalid) { box.validationMessage = invalid; return; }
        resolve(value);
      }),
    ]);
  }

  private async pickSkillsRoot(name: string, canGoBack: boolean): Promise<string | typeof BACK | undefined> {
    this.service.ensureLoaded();
    const index = this.service.index;
    const items: Array<vscode.QuickPickItem & { dir: string }> = [];
    for (const folder of index.options.workspaceFolders) {
      // Only `.claude/skills` folders (the folder's own, then nested ones): Claude Code never loads a skill made in a
      // group folder inside one, in `.agents/skills` or `.github/skills`.
      const roots = index.roots.filter((r) => r.scope === 'project' && r.workspaceFolder === folder && claudeFolderOf(r) !== undefined);
      const dirs = [...new Set([path.join(folder, '.claude', 'skills'), ...roots.map((r) => r.path)])];
      for (const dir of dirs) {
        items.push({ label: `$(root-folder) Project: ${path.relative(folder, dir) || '.'}`, description: path.basename(folder), detail: path.join(dir, name), dir });
      }
    }
    const personal = path.join(index.options.home ?? os.homedir(), '.claude', 'skills');
    items.push({ label: '$(account) Personal: ~/.claude/skills', description: 'every project', detail: path.join(personal, name), dir: personal });
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { dir: string }>();
    pick.title = `New Skill: where to create ${name}?`;
    pick.step = 2;
    pick.totalSteps = 2;
    pick.placeholder = 'Choose the skills folder';
    pick.items = items;
    pick.ignoreFocusOut = true;
    if (canGoBack) pick.buttons = [vscode.QuickInputButtons.Back];
    return this.runInput<string | typeof BACK>(pick, (resolve) => [
      pick.onDidTriggerButton((button) => { if (button === vscode.QuickInputButtons.Back) resolve(BACK); }),
      pick.onDidAccept(() => { const item = pick.selectedItems[0] ?? pick.activeItems[0]; if (item) resolve(item.dir); }),
    ]);
  }

  /** The QuickInput step on screen (the test API reads and drives it). */
  activeInput: vscode.QuickInput | undefined;

  /** Shows `input`, resolves with what `wire` resolves (or undefined when it is hidden), then disposes it. */
  private runInput<T>(input: vscode.QuickInput, wire: (resolve: (value: T) => void) => vscode.Disposable[]): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve) => {
      let done = false;
      const finish = (value: T | undefined) => {
        if (done) return;
        done = true;
        for (const d of subscriptions) d.dispose();
        if (this.activeInput === input) this.activeInput = undefined;
        input.dispose();
        resolve(value);
      };
      const subscriptions = [...wire((value) => finish(value)), input.onDidHide(() => finish(undefined))];
      this.activeInput = input;
      input.show();
    });
  }

  /** Search Skills: a QuickPick over every skill, matching name, invocation and description words. Returns the opened folder. */
  async searchSkills(args: SearchArgs = {}): Promise<string | undefined> {
    this.service.ensureLoaded();
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { skill: SkillEntry }>();
    pick.title = 'Search Skills';
    pick.placeholder = 'Type a name or words from a description';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.items = searchItems(this.service.index.skills);
    if (args.value) pick.value = args.value;
    const chosen = await new Promise<SkillEntry | undefined>((resolve) => {
      pick.onDidAccept(() => { resolve(pick.selectedItems[0]?.skill ?? pick.activeItems[0]?.skill); pick.hide(); });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    pick.dispose();
    if (!chosen) return undefined;
    await vscode.window.showTextDocument(vscode.Uri.file(chosen.skillMdPath), { preview: false });
    return chosen.dir;
  }

  async openSkill(arg?: SkillArg): Promise<void> {
    const skill = await this.resolveSkill(arg);
    if (skill) await vscode.window.showTextDocument(vscode.Uri.file(skill.skillMdPath), { preview: false });
  }

  async revealSkill(arg?: SkillArg): Promise<void> {
    const skill = await this.resolveSkill(arg);
    if (skill) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(skill.dir));
  }

  /** Copy Invocation: the command Claude Code answers to (`/deploy`, `/plugin:name`) to the clipboard; returns it. */
  async copyInvocation(arg?: SkillArg): Promise<string | undefined> {
    const skill = await this.resolveSkill(arg);
    if (!skill) return undefined;
    if (skill.invocation === null) {
      void vscode.window.showWarningMessage(`Claude Code never loads ${skill.name}: ${skill.notLoadedReason ? shortMessage(skill.notLoadedReason) : 'it is not in a folder Claude Code reads'}.`);
      return undefined;
    }
    await vscode.env.clipboard.writeText(skill.invocation);
    vscode.window.setStatusBarMessage(`Copied ${skill.invocation}`, 3000);
    return skill.invocation;
  }

  /**
   * Package Skill: validates under the upload profile first (refuses with the reasons before asking anything), then
   * asks where to write `<name>.skill` (the workspace folder or a chosen folder) and writes it. A skill refused only
   * for its Claude Code keys gets a "Package Without Them" button: a copy of SKILL.md without them is packaged.
   */
  async packageSkill(arg?: SkillArg, outDir?: string, opts?: PackageOptions) {
    const skill = await this.resolveSkill(arg);
    if (!skill) return undefined;
    const refused = uploadRefusal(this.service.fs, skill.dir, opts);
    if (refused) {
      this.reportRefusal(skill, refused);
      return refused;
    }
    const out = outDir ?? await this.pickOutDir(skill);
    if (!out) return undefined;
    const result = packageSkill(this.service.fs, skill.dir, out, opts);
    if (result.ok) {
      this.log.info(`packaged ${skill.dir} → ${result.file} (${result.entries.length} entries${result.dropped.length ? `; left out: ${result.dropped.join(', ')}` : ''})`);
      const dropped = result.dropped.length ? ` without the Claude Code key${result.dropped.length === 1 ? '' : 's'} ${result.dropped.join(', ')} (your SKILL.md keeps ${result.dropped.length === 1 ? 'it' : 'them'})` : '';
      void vscode.window.showInformationMessage(`Packaged ${path.basename(result.file)} (${result.entries.length} file${result.entries.length === 1 ? '' : 's'})${dropped}.`, 'Reveal').then((choice) => {
        if (choice) void vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(result.file));
      });
    } else {
      this.reportRefusal(skill, result);
    }
    return result;
  }

  private reportRefusal(skill: SkillEntry, result: PackageRefusal): void {
    this.log.warn(`package refused for ${skill.dir}: ${result.message}`);
    for (const p of result.problems) this.log.warn(`  ${p.file ?? skill.skillMdPath}:${p.line}:${p.column}: ${p.severity} ${p.code} ${p.message}`);
    if (result.claudeCodeKeys?.packagesWithout) {
      // The message says it all (the keys, the plugin way); the button packages a copy without them. Modal, like every
      // refusal: it is closed before anything else, so it never stays beside a later "Packaged" message.
      void vscode.window.showWarningMessage(`Package Skill: ${result.message}`, { modal: true }, 'Package Without Them', 'Open SKILL.md').then((choice) => {
        if (choice === 'Package Without Them') void this.packageSkill(skill.dir, undefined, { withoutClaudeCodeKeys: true });
        else if (choice) void vscode.window.showTextDocument(vscode.Uri.file(skill.skillMdPath));
      }, (err: unknown) => this.log.warn(`package refusal dialog not shown: ${String(err)}`));
      return;
    }
    const errors = result.problems.filter((p) => p.severity === 'error');
    const detail = [...errors.slice(0, 5).map((p) => `${p.code}: ${p.message}`), ...(errors.length > 5 ? [`…and ${errors.length - 5} more (Output › Skillflow)`] : [])].join('\n');
    // Modal: a refusal answers the command at once and is closed before anything else, so it never stays beside a later
    // "Packaged" message (a notification with a button stays until dismissed, and the API cannot close it).
    void vscode.window.showErrorMessage(`Package Skill: ${result.message}`, { modal: true, ...(detail ? { detail } : {}) }, 'Open SKILL.md').then((choice) => {
      if (choice) void vscode.window.showTextDocument(vscode.Uri.file(skill.skillMdPath));
    }, (err: unknown) => this.log.warn(`package refusal dialog not shown: ${String(err)}`));
  }

  private async pickOutDir(skill: SkillEntry): Promise<string | undefined> {
    const folder = skill.root.workspaceFolder || this.service.index.options.workspaceFolders[0];
    const items: Array<vscode.QuickPickItem & { dir?: string }> = [];
    if (folder) items.push({ label: '$(root-folder) Workspace folder', detail: folder, dir: folder });
    items.push({ label: '$(folder-opened) Choose a folder…' });
    const picked = await vscode.window.showQuickPick(items, { title: `Package ${entryLabel(skill)}: where to write ${path.basename(skill.dir)}.skill?` });
    if (!picked) return undefined;
    if (picked.dir) return picked.dir;
    const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Package here' });
    return chosen?.[0]?.fsPath;
  }

  /** Run Script (trusted workspaces only): runs `scripts/<file>` from the skill folder in the `Skillflow` terminal. Returns the command line. */
  async runScript(arg?: SkillsNode | vscode.Uri): Promise<string | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Run Script is not available in an untrusted workspace (Skillflow only indexes and validates here).');
      return undefined;
    }
    this.service.ensureLoaded();
    let dir: string | undefined;
    let rel: string | undefined;
    if (isNode(arg) && arg.kind === 'file') { dir = arg.dir; rel = arg.relPath; }
    const file = arg instanceof vscode.Uri ? arg.fsPath : vscode.window.activeTextEditor?.document.uri.fsPath;
    if (!dir && file) {
      const skill = this.service.index.skillContaining(file);
      if (skill) { dir = skill.dir; rel = path.relative(skill.dir, file).split(path.sep).join('/'); }
    }
    if (!dir || !rel || !rel.startsWith('scripts/') || rel.split('/').includes('..')) {
      void vscode.window.showErrorMessage('Run Script: choose a file in a skill\'s scripts/ folder.');
      return undefined;
    }
    const target = path.join(dir, ...rel.split('/'));
    const real = this.service.fs.realPath(target);
    const realDir = this.service.fs.realPath(dir);
    if (!real || !realDir || path.relative(realDir, real).startsWith('..')) {
      void vscode.window.showErrorMessage(`Run Script: ${rel} is missing or leaves the skill folder.`);
      return undefined;
    }
    const shell = shellKindFor(vscode.env.shell);
    if (!shell) {
      // cmd.exe has no safe quoting: refuse rather than build an injectable command line.
      void vscode.window.showErrorMessage('Run Script needs PowerShell or a POSIX shell as the default terminal shell (cmd.exe cannot quote paths safely).');
      return undefined;
    }
    const line = scriptCommandLine(dir, rel, shell);
    const ran = await runInTerminal(line, { what: 'Run Script' });
    if (!ran.ok) {
      void vscode.window.showErrorMessage(ran.message);
      return undefined;
    }
    this.log.info(`run script (${shell} quoting): ${line}`);
    return line;
  }
}

/**
 * Search Skills items, in search order (the entry that answers a command before the ones it shadows): label = the
 * command, as the tree shows it (the name when never loaded), description = the display name where it differs, level and
 * state, detail = the description (matched too).
 */
export function searchItems(skills: readonly SkillEntry[]): Array<vscode.QuickPickItem & { skill: SkillEntry }> {
  return searchOrder(skills).map((s) => ({
    label: entryLabel(s),
    description: [
      s.invocation === null ? 'not loaded' : '',
      s.displayName && s.displayName !== entryLabel(s) ? s.displayName : '',
      `${s.level}${s.source === 'command' ? ' command' : ''}`,
      s.invocation !== null && s.shadowedBy ? 'shadowed' : '',
    ].filter(Boolean).join(' · '),
    detail: s.description ?? '',
    iconPath: new vscode.ThemeIcon(s.source === 'command' ? 'terminal' : s.kind === 'workflow' ? 'layers' : 'symbol-method'),
    skill: s,
  }));
}

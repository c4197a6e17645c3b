/**
 * The Skills view: TreeItems for the plain tree model (badges and tooltips with the rule configuration applied), live
 * updates, and Claude Code's listing budget (the What Claude Sees figures) in the view description.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mdCode, mdText } from '../../core/base/markdown';
import type { SkillEntry } from '../../core/skillmd/model';
import { entryType } from '../../core/catalog/entryType';
import { shorten } from '../util/names';
import type { SkillsService } from './service';
import type { IndexChange } from '../../core/catalog/skillIndex';
import { agentsSignature, boundSkillDirs, childNodes, displayPaths, entriesOf, entryLabel, entryRow, entryState, homeRelative, levelNodeIdOf, rootNodes, worstSeverity, type EntryState, type SkillsNode } from '../../core/catalog/treeModel';
import type { ClaudeLevel } from '../../core/claude/types';
import type { SkillsTimings } from './timings';
import type { Problem } from '../../core/base/types';
import type { EditorRuleConfig } from './ruleConfig';
import type { ClaudeService } from '../claude/service';
import { listingHeader } from '../../webview/listingView';

const LEVEL_ICON: Record<ClaudeLevel, string> = {
  managed: 'shield', personal: 'account', project: 'root-folder', additional: 'folder-library', nested: 'folder', plugin: 'extensions', synced: 'cloud',
};

/** What each level is, for the group's tooltip (docs/claude-code-model.md). */
const LEVEL_HELP: Record<ClaudeLevel, string> = {
  managed: 'Skills from the managed-settings folder: they override every other level.',
  personal: '`~/.claude/skills` and `~/.claude/commands`: they override project entries of the same name.',
  project: '`.claude/skills` and `.claude/commands` of the folder Claude Code starts in and its parents up to the repository root.',
  additional: 'Folders added with `--add-dir` (setting `skillflow.skills.additionalDirectories`).',
  nested: '`.claude/skills` below the start folder: they load once Claude reads or edits a file there; on a name clash they answer `/<folder>:<name>`.',
  plugin: 'Plugin skills answer `/<plugin>:<name>` and cannot clash with other levels.',
  synced: 'Skills synced from claude.ai: any other command of the same name wins.',
};

/** Icon of an entry's kind: a command file, a workflow skill or a skill. */
function entryIconId(skill: SkillEntry): string {
  return skill.source === 'command' ? 'terminal' : skill.kind === 'workflow' ? 'layers' : 'symbol-method';
}

/**
 * A row's icon: dimmed for shadowed and never-loaded entries; for a skill with problems the error or warning icon (its
 * badge); a command keeps its terminal icon, in the problem's colour.
 */
function entryIcon(skill: SkillEntry, state: EntryState, severity: 'error' | 'warning' | 'info' | undefined): vscode.ThemeIcon {
  const id = entryIconId(skill);
  if (state !== 'loaded') return new vscode.ThemeIcon(id, new vscode.ThemeColor('disabledForeground'));
  if (skill.source !== 'command') return severityIcon(severity, id);
  if (severity === 'error') return new vscode.ThemeIcon(id, new vscode.ThemeColor('list.errorForeground'));
  if (severity === 'warning') return new vscode.ThemeIcon(id, new vscode.ThemeColor('list.warningForeground'));
  return new vscode.ThemeIcon(id);
}

function severityIcon(severity: 'error' | 'warning' | 'info' | undefined, fallback: string): vscode.ThemeIcon {
  if (severity === 'error') return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
  if (severity === 'warning') return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  return new vscode.ThemeIcon(fallback);
}

function countBy(problems: ReadonlyArray<{ severity: string }>, severity: string): number {
  return problems.filter((p) => p.severity === severity).length;
}

/** Problems that say what the row already shows (dimmed, with its reason). */
const STATE_CODES = new Set(['shadowed', 'skill-not-loaded']);

/**
 * The context value of an entry's row: `skill.<skill|command>.<loaded|shadowed|notLoaded>[.error|.warning]`. The menus
 * in package.json match on it (Copy Invocation only where there is a command, Package Skill only for skill folders).
 */
export function entryContextValue(skill: SkillEntry, problems: readonly Problem[] = skill.problems): string {
  const severity = worstSeverity(problems.filter((p) => !STATE_CODES.has(p.code)));
  return `skill.${skill.source}.${entryState(skill)}${severity === 'error' ? '.error' : severity === 'warning' ? '.warning' : ''}`;
}

/**
 * The markdown tooltip of an entry: command, display name, description, why it is shadowed or not loaded, path,
 * problems (`problems`: the entry's problems with the rule configuration applied).
 */
export function skillTooltip(skill: SkillEntry, opts: { home?: string; workspaceFolders: readonly string[] } = { workspaceFolders: [] }, problems: readonly Problem[] = skill.problems): vscode.MarkdownString {
  const row = entryRow(skill, '', opts);
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(skill.invocation !== null ? `**${mdCode(skill.invocation)}**` : `**${mdText(skill.name)}**`);
  if (skill.displayName && skill.displayName !== row.label) md.appendMarkdown(` · ${mdText(skill.displayName)}`);
  md.appendMarkdown('\n\n');
  if (row.state === 'shadowed') md.appendMarkdown(`$(eye-closed) **Shadowed:** ${mdText(row.reason ?? '')}\n\n`);
  if (row.state === 'notLoaded') md.appendMarkdown(`$(circle-slash) **Not loaded:** ${mdText(row.reason ?? '')}\n\n`);
  if (skill.description) md.appendMarkdown(`${mdText(skill.description)}\n\n`);
  else md.appendMarkdown('_No description._\n\n');
  md.appendMarkdown(`$(file) ${mdCode(displayPaths(skill.skillMdPath, opts))}  \n`);
  md.appendMarkdown(`$(symbol-numeric) ~${skill.tokenEstimate} tokens · ${skill.level} ${entryType(skill)}`);
  const shownProblems = problems.filter((p) => !STATE_CODES.has(p.code));
  if (shownProblems.length) {
    md.appendMarkdown('\n\n---\n\n');
    for (const p of shownProblems.slice(0, 10)) {
      const icon = p.severity === 'error' ? '$(error)' : p.severity === 'warning' ? '$(warning)' : '$(info)';
      md.appendMarkdown(`${icon} ${mdCode(p.code)} ${mdText(`${p.message} (line ${p.line})`)}  \n`);
    }
    if (shownProblems.length > 10) md.appendMarkdown(`…and ${shownProblems.length - 10} more`);
  }
  return md;
}

/**
 * Rows of shadowed and never-loaded entries carry a `skillflow-entry:` resource URI (not the file's): this provider
 * greys their label, and the workbench's problem colours, which belong to the file, stay off them.
 */
const DIMMED_SCHEME = 'skillflow-entry';

class DimmedEntryDecorations implements vscode.FileDecorationProvider {
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== DIMMED_SCHEME) return undefined;
    return { color: new vscode.ThemeColor('disabledForeground') };
  }
}

export class SkillsTreeProvider implements vscode.TreeDataProvider<SkillsNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SkillsNode | SkillsNode[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** Node objects by id: the same object is handed out again, so a change can refresh just that node. */
  private readonly nodes = new Map<string, SkillsNode>();
  private readonly subscription: vscode.Disposable;
  private rendered = false;
  /** The ids of the top-level rows last handed out, in order. */
  private renderedRoots = '';
  /** What the Agents group showed after the last render or refresh (agentsSignature). */
  private agentsShown = '';
  /** The place (level group and label) of each rendered entry row. */
  private readonly placed = new Map<string, string>();
  view: vscode.TreeView<SkillsNode> | undefined;
  /** Each rendered entry's problems with the rule configuration applied, by skill folder (dropped when it changes). */
  private readonly configured = new Map<string, Problem[]>();
  private claude: ClaudeService | undefined;
  private claudeSubscription: vscode.Disposable | undefined;

  constructor(
    private readonly service: SkillsService,
    private readonly log: vscode.LogOutputChannel,
    private readonly timings: SkillsTimings,
    private readonly rules?: EditorRuleConfig,
  ) {
    this.subscription = vscode.Disposable.from(
      service.onDidChange((c) => this.onIndexChange(c)),
      vscode.window.registerFileDecorationProvider(new DimmedEntryDecorations()),
      ...(rules ? [rules.onDidChange(() => { this.configured.clear(); if (this.rendered) this.emitter.fire(undefined); })] : []),
    );
  }

  /**
   * The header shows the listing of the Claude Code model (the one What Claude Sees shows, built once by the claude
   * service) and follows its changes.
   */
  useListing(claude: ClaudeService): void {
    this.claudeSubscription?.dispose();
    this.claude = claude;
    const update = () => { if (this.rendered) this.updateViewDescription(); };
    this.claudeSubscription = vscode.Disposable.from(
      claude.onDidChange(update),
      // With several folders the listing shown follows the active editor's folder.
      vscode.window.onDidChangeActiveTextEditor(() => { if (claude.folders().length > 1) update(); }),
    );
    if (this.rendered) this.updateViewDescription();
  }

  /** An entry's problems as Problems shows them: `.skillflow.json`, `skillflow.validation.rules` and disable comments applied. */
  problemsOf(skill: SkillEntry): Problem[] {
    const known = this.configured.get(skill.dir);
    if (known) return known;
    let problems = skill.problems;
    if (this.rules && problems.length) {
      const byFile = new Map<string, Problem[]>();
      for (const p of problems) {
        const file = p.file ?? skill.skillMdPath;
        byFile.set(file, [...(byFile.get(file) ?? []), p]);
      }
      problems = [...byFile].flatMap(([file, list]) => this.rules!.apply(file, list));
    }
    this.configured.set(skill.dir, problems);
    return problems;
  }

  private intern(node: SkillsNode): SkillsNode {
    const known = this.nodes.get(node.id);
    if (known && known.kind === node.kind) { Object.assign(known, node); return known; }
    this.nodes.set(node.id, node);
    return node;
  }

  getChildren(element?: SkillsNode): SkillsNode[] {
    if (!element) {
      const first = !this.rendered;
      const started = performance.now();
      this.service.ensureLoaded();
      const roots = rootNodes(this.service.index).map((n) => this.intern(n));
      this.renderedRoots = roots.map((n) => n.id).join('\n');
      this.agentsShown = agentsSignature(this.service.index);
      if (first) {
        this.rendered = true;
        this.timings.firstRenderMs = performance.now() - started;
        this.log.info(`first tree render: ${this.service.index.skills.length} skills in ${this.timings.firstRenderMs.toFixed(1)} ms`);
      }
      this.updateViewDescription();
      return roots;
    }
    const children = childNodes(this.service.index, element).map((n) => this.intern(n));
    if (element.kind === 'level') {
      for (const n of children) if (n.kind === 'skill') this.placed.set(n.dir, this.placeOf(n.dir) ?? '');
    }
    return children;
  }

  /** Where a row sits and what it says: its level group and label (a change of either moves the row). */
  private placeOf(dir: string): string | undefined {
    const index = this.service.index;
    const skill = index.skillByDir(dir);
    return skill && `${levelNodeIdOf(index, skill) ?? ''}\0${entryLabel(skill)}`;
  }

  getParent(element: SkillsNode): SkillsNode | undefined {
    const index = this.service.index;
    switch (element.kind) {
      case 'skill': {
        const skill = index.skillByDir(element.dir);
        const id = skill && levelNodeIdOf(index, skill);
        return id ? this.nodes.get(id) : undefined;
      }
      case 'folder':
      case 'file': {
        const slash = element.relPath.lastIndexOf('/');
        return slash < 0 ? this.nodes.get(`skill:${element.dir}`) : this.nodes.get(`skill:${element.dir}/${element.relPath.slice(0, slash)}/`);
      }
      case 'agent': return this.nodes.get('agents');
      case 'boundSkill': return this.nodes.get(`agent:${element.agentPath}`);
      default: return undefined;
    }
  }

  /**
   * Shows the Skills view with the skill's row revealed and selected (focus stays where it is). The nodes on the way
   * are made first, so this works before the view has ever rendered.
   */
  async revealSkill(dir: string): Promise<boolean> {
    const skill = this.service.index.skillByDir(dir);
    if (!skill || !this.view) return false;
    for (const top of this.getChildren()) if (top.kind === 'level') this.getChildren(top);
    const node = this.nodes.get(`skill:${dir}`);
    if (!node) return false;
    try {
      await this.view.reveal(node, { select: true, focus: false, expand: false });
      return true;
    } catch (err) {
      this.log.warn(`could not reveal ${dir} in the Skills view: ${String(err)}`);
      return false;
    }
  }

  /** The tree node of a skill folder, when it has been rendered. */
  nodeForSkill(dir: string): SkillsNode | undefined {
    return this.nodes.get(`skill:${dir}`);
  }

  getTreeItem(node: SkillsNode): vscode.TreeItem {
    const index = this.service.index;
    switch (node.kind) {
      case 'level': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(LEVEL_ICON[node.level]);
        item.contextValue = `level.${node.level}`;
        const entries = entriesOf(index, node);
        const commands = entries.filter((s) => s.source === 'command').length;
        const count = `${entries.length - commands} skill${entries.length - commands === 1 ? '' : 's'}${commands ? `, ${commands} command file${commands === 1 ? '' : 's'}` : ''}`;
        item.description = node.parentFolder ? `${entries.length} · parent folder` : `${entries.length}`;
        // A string tooltip would become the row's accessible name; keep the label there.
        const where = node.folder ? `  \n${mdCode(homeRelative(node.folder, index.options.home))}` : '';
        item.tooltip = new vscode.MarkdownString(`**${mdText(node.label)}** · ${count}${where}\n\n${LEVEL_HELP[node.level]}`);
        item.accessibilityInformation = { label: `${node.label}, ${count}` };
        return item;
      }
      case 'skill': {
        const skill = index.skillByDir(node.dir);
        if (!skill) return new vscode.TreeItem(path.basename(node.dir), vscode.TreeItemCollapsibleState.None);
        const isCommand = skill.source === 'command';
        const item = new vscode.TreeItem(entryLabel(skill), isCommand ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        const opts = { home: index.options.home, workspaceFolders: index.options.workspaceFolders };
        const row = entryRow(skill, skill.description ? shorten(skill.description, 60) : '', opts);
        const problems = this.problemsOf(skill);
        const severity = worstSeverity(problems.filter((p) => !STATE_CODES.has(p.code)));
        item.iconPath = entryIcon(skill, row.state, severity);
        item.description = row.description;
        item.tooltip = skillTooltip(skill, opts, problems);
        item.resourceUri = row.state === 'loaded' ? vscode.Uri.file(skill.dir) : vscode.Uri.file(skill.dir).with({ scheme: DIMMED_SCHEME, query: row.state });
        item.contextValue = entryContextValue(skill, problems);
        // A command is one file: its row opens it.
        if (isCommand) item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(skill.skillMdPath)] };
        const errors = countBy(problems, 'error');
        const warnings = countBy(problems, 'warning');
        const state = row.state === 'shadowed' ? ', shadowed' : row.state === 'notLoaded' ? ', not loaded' : '';
        item.accessibilityInformation = {
          label: `${row.label}${isCommand ? ', command file' : ''}${state}${errors ? `, ${errors} error${errors > 1 ? 's' : ''}` : ''}${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`,
        };
        return item;
      }
      case 'folder': {
        const item = new vscode.TreeItem(path.posix.basename(node.relPath), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.resourceUri = vscode.Uri.file(path.join(node.dir, node.relPath));
        item.iconPath = vscode.ThemeIcon.Folder;
        item.contextValue = 'folder';
        return item;
      }
      case 'file': {
        const uri = vscode.Uri.file(path.join(node.dir, node.relPath));
        const item = new vscode.TreeItem(path.posix.basename(node.relPath), vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.resourceUri = uri;
        item.iconPath = vscode.ThemeIcon.File;
        item.contextValue = node.isScript ? 'script' : 'file';
        item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
        return item;
      }
      case 'agents': {
        const item = new vscode.TreeItem('Agents', vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon('organization');
        item.description = `${index.agents.length}`;
        item.contextValue = 'agents';
        return item;
      }
      case 'agent': {
        const agent = index.agents.find((a) => a.path === node.path);
        const item = new vscode.TreeItem(agent?.name ?? path.basename(node.path, '.md'), agent?.skills.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        if (!agent) return item;
        item.iconPath = severityIcon(worstSeverity(agent.problems), 'person');
        item.description = agent.description ? shorten(agent.description, 60) : '';
        const md = new vscode.MarkdownString(undefined, true);
        md.appendMarkdown(`**${mdText(agent.name)}**${agent.model ? ` · ${mdText(agent.model)}` : ''}\n\n`);
        if (agent.description) md.appendMarkdown(`${mdText(agent.description)}\n\n`);
        md.appendMarkdown(`$(file) ${mdCode(agent.path)}`);
        if (agent.tools?.length) md.appendMarkdown(`  \n$(tools) ${agent.tools.map((t) => mdCode(t)).join(' ')}`);
        for (const p of agent.problems.slice(0, 10)) md.appendMarkdown(`  \n$(${p.severity === 'info' ? 'info' : p.severity}) ${mdCode(p.code)} ${mdText(p.message)}`);
        item.tooltip = md;
        item.contextValue = 'agent';
        item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(agent.path)] };
        return item;
      }
      case 'boundSkill': {
        const skill = node.dir ? index.skillByDir(node.dir) : undefined;
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        if (skill) {
          const problems = this.problemsOf(skill);
          item.iconPath = severityIcon(worstSeverity(problems.filter((p) => p.code !== 'shadowed')), entryIconId(skill));
          item.description = skill.description ? shorten(skill.description, 60) : '';
          item.tooltip = skillTooltip(skill, { home: index.options.home, workspaceFolders: index.options.workspaceFolders }, problems);
          item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(skill.skillMdPath)] };
          item.contextValue = `${entryContextValue(skill, problems)}.bound`;
        } else {
          item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
          item.description = 'missing skill';
          item.tooltip = new vscode.MarkdownString(`No indexed skill is named ${mdCode(node.name)} (\`agent-skill-missing\`).`);
          item.accessibilityInformation = { label: `${node.name}, missing skill` };
          item.contextValue = 'boundSkill.missing';
        }
        return item;
      }
    }
  }

  /**
   * Refreshes only what changed: the rows of touched entries that keep their place, the level groups an entry enters,
   * leaves or moves in (a new skill folder refreshes its group alone: the workbench asks for that group's rows and no
   * other), the Agents group; the whole tree only when the top-level groups themselves change.
   */
  private onIndexChange(change: IndexChange): void {
    if (change.structural) this.configured.clear();
    else for (const dir of change.skills) this.configured.delete(dir);
    // The header follows the claude service, which watches the same files.
    if (!this.rendered) return;
    const refresh = this.refreshTargets(change);
    if (refresh === 'all') this.emitter.fire(undefined);
    else if (refresh.length) this.emitter.fire(refresh);
  }

  private refreshTargets(change: IndexChange): SkillsNode[] | 'all' {
    if (rootNodes(this.service.index).map((n) => n.id).join('\n') !== this.renderedRoots) return 'all';
    if (change.structural && !change.skills.size) return 'all';
    const groupOf = (place: string) => place.slice(0, Math.max(place.indexOf('\0'), 0));
    const groups = new Set<string>();
    const rows: Array<{ row: SkillsNode; group: string }> = [];
    for (const dir of change.skills) {
      const before = this.placed.get(dir);
      const after = this.placeOf(dir);
      if (before !== undefined && before === after) {
        const row = this.nodes.get(`skill:${dir}`);
        if (row) rows.push({ row, group: groupOf(before) });
        continue;
      }
      // A row that appears, goes, or moves (another group, or a label that sorts elsewhere): its groups list again.
      for (const place of [before, after]) if (place !== undefined) groups.add(groupOf(place));
      if (after === undefined) this.placed.delete(dir);
    }
    const targets: SkillsNode[] = [];
    for (const id of groups) {
      const group = this.nodes.get(id);
      if (!group || group.kind !== 'level') return 'all';
      targets.push(group);
    }
    // A row inside a group that lists again is rebuilt with it.
    for (const { row, group } of rows) if (!groups.has(group)) targets.push(row);
    // The Agents group lists again when an agent or a bound skill's resolution changed, or a bound skill itself did.
    const agentsNow = change.agents ? agentsSignature(this.service.index) : this.agentsShown;
    if (agentsNow !== this.agentsShown || (change.skills.size && [...boundSkillDirs(this.service.index)].some((dir) => change.skills.has(dir)))) {
      this.agentsShown = agentsNow;
      const agents = this.nodes.get('agents');
      if (!agents) return 'all';
      targets.push(agents);
    }
    return targets;
  }

  /**
   * Claude Code's listing budget in the view's description, in a few words (`used / budget chars`, a marker when
   * descriptions are dropped or cut: the What Claude Sees figures); a message when descriptions are dropped. The
   * workbench clips the description to the header's width and shows the same text as its hover, so where the budget
   * comes from is in What Claude Sees (the header's eye button), not in a paragraph cut after a few words.
   */
  updateViewDescription(): void {
    if (!this.view || !this.claude) return;
    const shown = this.claude.shownListing();
    let description: string | undefined;
    let message: string | undefined;
    if (shown) {
      const header = listingHeader(shown.listing);
      description = this.claude.folders().length > 1 ? `${header.figures} · ${shown.folder.name}` : header.figures;
      message = header.warning;
    }
    // Setting the same text again re-lays the view out and closes an open row hover.
    if (this.view.description !== description) this.view.description = description;
    if (this.view.message !== message) this.view.message = message;
  }

  dispose(): void {
    this.claudeSubscription?.dispose();
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** The Skills view: TreeItems for the plain tree model, live updates, listing budget in the view description. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillEntry } from '../../core/skillmd/model';
import { shorten } from '../util/names';
import type { SkillsService } from './service';
import type { IndexChange } from '../../core/catalog/skillIndex';
import { childNodes, displayPaths, entriesOf, entryLabel, entryRow, entryState, homeRelative, levelNodeIdOf, rootNodes, worstSeverity, type EntryState, type SkillsNode } from '../../core/catalog/treeModel';
import type { ClaudeLevel } from '../../core/claude/types';
import type { SkillsTimings } from './timings';

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
export function entryContextValue(skill: SkillEntry): string {
  const severity = worstSeverity(skill.problems.filter((p) => !STATE_CODES.has(p.code)));
  return `skill.${skill.source}.${entryState(skill)}${severity === 'error' ? '.error' : severity === 'warning' ? '.warning' : ''}`;
}

/** The markdown tooltip of an entry: command, display name, description, why it is shadowed or not loaded, path, problems. */
export function skillTooltip(skill: SkillEntry, opts: { home?: string; workspaceFolders: readonly string[] } = { workspaceFolders: [] }): vscode.MarkdownString {
  const row = entryRow(skill, '', opts);
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(skill.invocation !== null ? `**\`${skill.invocation}\`**` : `**${escapeMarkdown(skill.name)}**`);
  if (skill.displayName && skill.displayName !== row.label) md.appendMarkdown(' · ').appendText(skill.displayName);
  md.appendMarkdown('\n\n');
  if (row.state === 'shadowed') md.appendMarkdown('$(eye-closed) **Shadowed:** ').appendText(row.reason ?? '').appendMarkdown('\n\n');
  if (row.state === 'notLoaded') md.appendMarkdown('$(circle-slash) **Not loaded:** ').appendText(row.reason ?? '').appendMarkdown('\n\n');
  if (skill.description) md.appendText(skill.description).appendMarkdown('\n\n');
  else md.appendMarkdown('_No description._\n\n');
  md.appendMarkdown(`$(file) \`${displayPaths(skill.skillMdPath, opts)}\`  \n`);
  const what = skill.source === 'command' ? 'command' : skill.kind === 'workflow' ? 'workflow skill' : 'skill';
  md.appendMarkdown(`$(symbol-numeric) ~${skill.tokenEstimate} tokens · ${skill.level} ${what}`);
  const problems = skill.problems.filter((p) => !STATE_CODES.has(p.code));
  if (problems.length) {
    md.appendMarkdown('\n\n---\n\n');
    for (const p of problems.slice(0, 10)) {
      const icon = p.severity === 'error' ? '$(error)' : p.severity === 'warning' ? '$(warning)' : '$(info)';
      md.appendMarkdown(`${icon} \`${p.code}\` `).appendText(`${p.message} (line ${p.line})`).appendMarkdown('  \n');
    }
    if (problems.length > 10) md.appendMarkdown(`…and ${problems.length - 10} more`);
  }
  return md;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
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
  /** The place (level group and label) of each rendered entry row. */
  private readonly placed = new Map<string, string>();
  view: vscode.TreeView<SkillsNode> | undefined;

  constructor(private readonly service: SkillsService, private readonly log: vscode.LogOutputChannel, private readonly timings: SkillsTimings) {
    this.subscription = vscode.Disposable.from(
      service.onDidChange((c) => this.onIndexChange(c)),
      vscode.window.registerFileDecorationProvider(new DimmedEntryDecorations()),
    );
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
        const count = `${entries.length - commands} skill${entries.length - commands === 1 ? '' : 's'}${commands ? `, ${commands} command${commands === 1 ? '' : 's'}` : ''}`;
        item.description = node.parentFolder ? `${entries.length} · parent folder` : `${entries.length}`;
        // A string tooltip would become the row's accessible name; keep the label there.
        const where = node.folder ? `  \n\`${homeRelative(node.folder, index.options.home)}\`` : '';
        item.tooltip = new vscode.MarkdownString(`**${node.label}** · ${count}${where}\n\n${LEVEL_HELP[node.level]}`);
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
        const severity = worstSeverity(skill.problems.filter((p) => p.code !== 'shadowed' && p.code !== 'skill-not-loaded'));
        item.iconPath = entryIcon(skill, row.state, severity);
        item.description = row.description;
        item.tooltip = skillTooltip(skill, opts);
        item.resourceUri = row.state === 'loaded' ? vscode.Uri.file(skill.dir) : vscode.Uri.file(skill.dir).with({ scheme: DIMMED_SCHEME, query: row.state });
        item.contextValue = entryContextValue(skill);
        // A command is one file: its row opens it.
        if (isCommand) item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(skill.skillMdPath)] };
        const errors = countBy(skill.problems, 'error');
        const warnings = countBy(skill.problems, 'warning');
        const state = row.state === 'shadowed' ? ', shadowed' : row.state === 'notLoaded' ? ', not loaded' : '';
        item.accessibilityInformation = {
          label: `${row.label}${isCommand ? ', command' : ''}${state}${errors ? `, ${errors} error${errors > 1 ? 's' : ''}` : ''}${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`,
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
        md.appendMarkdown(`**${agent.name}**${agent.model ? ` · ${agent.model}` : ''}\n\n`);
        if (agent.description) md.appendText(agent.description).appendMarkdown('\n\n');
        md.appendMarkdown(`$(file) \`${agent.path}\``);
        if (agent.tools?.length) md.appendMarkdown(`  \n$(tools) ${agent.tools.map((t) => `\`${t}\``).join(' ')}`);
        for (const p of agent.problems.slice(0, 10)) md.appendMarkdown(`  \n$(${p.severity === 'info' ? 'info' : p.severity}) \`${p.code}\` `).appendText(p.message);
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
          item.iconPath = severityIcon(worstSeverity(skill.problems.filter((p) => p.code !== 'shadowed')), entryIconId(skill));
          item.description = skill.description ? shorten(skill.description, 60) : '';
          item.tooltip = skillTooltip(skill, { home: index.options.home, workspaceFolders: index.options.workspaceFolders });
          item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(skill.skillMdPath)] };
          item.contextValue = `${entryContextValue(skill)}.bound`;
        } else {
          item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
          item.description = 'missing skill';
          item.tooltip = new vscode.MarkdownString(`No indexed skill is named \`${node.name}\` (\`agent-skill-missing\`).`);
          item.accessibilityInformation = { label: `${node.name}, missing skill` };
          item.contextValue = 'boundSkill.missing';
        }
        return item;
      }
    }
  }

  /** Refreshes only what changed: the touched skill nodes, or the whole tree when grouping changed. */
  private onIndexChange(change: IndexChange): void {
    if (!this.rendered) return;
    this.updateViewDescription();
    if (change.structural) { this.emitter.fire(undefined); return; }
    const affected: SkillsNode[] = [];
    for (const dir of change.skills) {
      const node = this.nodes.get(`skill:${dir}`);
      if (!node) continue;
      // A row that moves (another group, or a new command that sorts elsewhere) needs its parents rebuilt.
      if (this.placed.has(dir) && this.placed.get(dir) !== this.placeOf(dir)) { this.emitter.fire(undefined); return; }
      affected.push(node);
    }
    if (change.agents) {
      const agents = this.nodes.get('agents');
      if (agents) affected.push(agents);
      else { this.emitter.fire(undefined); return; }
    }
    if (affected.length) this.emitter.fire(affected);
  }

  /**
   * Listing budget: sum of descriptions vs skillflow.listingBudget, in the view's description; a message when over.
   * The workbench shows a view description's whole text as its hover, so the figures come first and the explanation
   * after them: the header shows the figures (the rest is cut off), the tooltip the explanation.
   */
  updateViewDescription(): void {
    if (!this.view) return;
    const budget = vscode.workspace.getConfiguration('skillflow').get<number>('listingBudget', 15000);
    const used = this.service.index.listingChars();
    this.view.description = `${used.toLocaleString('en-US')} / ${budget.toLocaleString('en-US')} chars`
      + ` — listing budget: Claude Code lists every skill's description to choose a skill, within about ${budget.toLocaleString('en-US')} characters;`
      + ' the descriptions use this many. Set skillflow.listingBudget to change the budget.';
    this.view.message = used > budget
      ? `⚠ Skill descriptions use ${used.toLocaleString('en-US')} characters, over the listing budget of ${budget.toLocaleString('en-US')}: Claude Code may not list every skill.`
      : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** The Skills view: TreeItems for the plain tree model, live updates, listing budget in the view description. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillEntry } from '../../core/skillmd/model';
import { shorten } from '../util/names';
import type { SkillsService } from './service';
import type { IndexChange } from '../../core/catalog/skillIndex';
import { childNodes, rootNodes, scopeNodeIdOf, worstSeverity, type SkillsNode } from '../../core/catalog/treeModel';
import type { SkillsTimings } from './timings';

const SCOPE_ICON: Record<string, string> = { project: 'root-folder', personal: 'account', plugin: 'extensions' };

function severityIcon(severity: 'error' | 'warning' | 'info' | undefined, fallback: string): vscode.ThemeIcon {
  if (severity === 'error') return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
  if (severity === 'warning') return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  return new vscode.ThemeIcon(fallback);
}

function countBy(problems: ReadonlyArray<{ severity: string }>, severity: string): number {
  return problems.filter((p) => p.severity === severity).length;
}

/** The markdown tooltip of a skill: description, path, invocation, token estimate, problems. */
export function skillTooltip(skill: SkillEntry): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(skill.invocation !== null ? `**${skill.name}** · \`${skill.invocation}\`\n\n` : `**${skill.name}** · not loaded by Claude Code\n\n`);
  if (skill.description) md.appendText(skill.description).appendMarkdown('\n\n');
  else md.appendMarkdown('_No description._\n\n');
  md.appendMarkdown(`$(file) \`${skill.skillMdPath}\`  \n`);
  md.appendMarkdown(`$(symbol-numeric) ~${skill.tokenEstimate} tokens · ${skill.scope} ${skill.kind} skill`);
  if (skill.shadowedBy) md.appendMarkdown(`  \n$(eye-closed) Shadowed by \`${skill.shadowedBy}\``);
  if (skill.problems.length) {
    md.appendMarkdown('\n\n---\n\n');
    for (const p of skill.problems.slice(0, 10)) {
      const icon = p.severity === 'error' ? '$(error)' : p.severity === 'warning' ? '$(warning)' : '$(info)';
      md.appendMarkdown(`${icon} \`${p.code}\` `).appendText(`${p.message} (line ${p.line})`).appendMarkdown('  \n');
    }
    if (skill.problems.length > 10) md.appendMarkdown(`…and ${skill.problems.length - 10} more`);
  }
  return md;
}

export class SkillsTreeProvider implements vscode.TreeDataProvider<SkillsNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SkillsNode | SkillsNode[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** Node objects by id: the same object is handed out again, so a change can refresh just that node. */
  private readonly nodes = new Map<string, SkillsNode>();
  private readonly subscription: vscode.Disposable;
  private rendered = false;
  view: vscode.TreeView<SkillsNode> | undefined;

  constructor(private readonly service: SkillsService, private readonly log: vscode.LogOutputChannel, private readonly timings: SkillsTimings) {
    this.subscription = service.onDidChange((c) => this.onIndexChange(c));
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
    return childNodes(this.service.index, element).map((n) => this.intern(n));
  }

  getParent(element: SkillsNode): SkillsNode | undefined {
    const index = this.service.index;
    switch (element.kind) {
      case 'group': return this.nodes.get(element.parentId);
      case 'skill': {
        const skill = index.skillByDir(element.dir);
        if (!skill) return undefined;
        return this.nodes.get(`${scopeNodeIdOf(skill)}/${skill.kind}`);
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
    for (const top of this.getChildren()) if (top.kind === 'scope') for (const group of this.getChildren(top)) this.getChildren(group);
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
      case 'scope': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(SCOPE_ICON[node.scope]);
        item.contextValue = `scope.${node.scope}`;
        const count = index.skills.filter((s) => s.scope === node.scope && (node.scope !== 'project' || (s.root.workspaceFolder ?? '') === node.workspaceFolder)).length;
        item.description = `${count}`;
        // A string tooltip would become the row's accessible name; keep the label there.
        item.tooltip = new vscode.MarkdownString(`**${node.label}** · ${count} skill${count === 1 ? '' : 's'}${node.workspaceFolder ? `  \n\`${node.workspaceFolder}\`` : ''}`);
        item.accessibilityInformation = { label: `${node.label}, ${count} skill${count === 1 ? '' : 's'}` };
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.skillKind === 'workflow' ? 'layers' : 'terminal');
        item.contextValue = `group.${node.skillKind}`;
        return item;
      }
      case 'skill': {
        const skill = index.skillByDir(node.dir);
        const item = new vscode.TreeItem(skill?.name ?? path.basename(node.dir), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        if (!skill) return item;
        const severity = worstSeverity(skill.problems.filter((p) => p.code !== 'shadowed'));
        item.iconPath = skill.shadowedBy ? new vscode.ThemeIcon('eye-closed', new vscode.ThemeColor('disabledForeground')) : severityIcon(severity, skill.kind === 'workflow' ? 'layers' : 'symbol-event');
        const short = skill.description ? shorten(skill.description, 60) : '';
        item.description = skill.shadowedBy ? `shadowed · ${short}` : short;
        item.tooltip = skillTooltip(skill);
        item.resourceUri = vscode.Uri.file(skill.dir);
        item.contextValue = `skill${skill.shadowedBy ? '.shadowed' : ''}${severity === 'error' ? '.error' : severity === 'warning' ? '.warning' : ''}`;
        const errors = countBy(skill.problems, 'error');
        const warnings = countBy(skill.problems, 'warning');
        item.accessibilityInformation = {
          label: `${skill.name}${skill.shadowedBy ? ', shadowed' : ''}${errors ? `, ${errors} error${errors > 1 ? 's' : ''}` : ''}${warnings ? `, ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}`,
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
          item.iconPath = severityIcon(worstSeverity(skill.problems.filter((p) => p.code !== 'shadowed')), 'symbol-event');
          item.description = skill.description ? shorten(skill.description, 60) : '';
          item.tooltip = skillTooltip(skill);
          item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(skill.skillMdPath)] };
          item.contextValue = 'skill.bound';
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
      if (node) affected.push(node);
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

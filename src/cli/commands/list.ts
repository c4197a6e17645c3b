/**
 * `skillflow list [PATH] [--format text|json] [--personal]`: every skill and agent found under
 * PATH (default `.`) with name, scope, kind, path, description and token estimate. `--personal` also
 * lists `~/.claude/skills` and the plugins installed under `~/.claude/plugins` (shadowing applied).
 */
import * as path from 'node:path';
import { type CliContext, EXIT_OK, EXIT_USAGE } from '../context';
import { parseArgs } from '../args';
import type { AgentEntry, SkillEntry } from '../../core/skillmd/model';
import { applyCrossSkillRules } from '../../core/discovery/crossSkill';
import { discover } from '../../core/discovery/discover';
import { discoverPaths } from '../../core/discovery/discover';
import { displayPath } from '../output/paths';
import { tokensForLength } from '../../core/base/text';

const USAGE = 'Usage: skillflow list [PATH] [--format text|json] [--personal]\n';

interface Row {
  name: string;
  scope: string;
  kind: string;
  path: string;
  description: string;
  tokens: number;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function agentTokens(ctx: CliContext, a: AgentEntry): number {
  return tokensForLength(ctx.fs.stat(a.path)?.size ?? 0);
}

export function listCommand(ctx: CliContext, args: string[]): number {
  const parsed = parseArgs(args, {
    flags: {
      format: { type: 'string', choices: ['text', 'json'] },
      personal: { type: 'boolean' },
    },
    maxPositionals: 1,
    positionalName: 'PATH',
  });
  if (parsed.help) { ctx.out(USAGE); return EXIT_OK; }
  const found = discoverPaths(ctx.fs, ctx.cwd, [parsed.positionals[0] ?? '.'], { profile: 'claude-code' });
  if (!found.ok) {
    ctx.err(`skillflow list: ${found.message}\n`);
    return EXIT_USAGE;
  }
  let skills: SkillEntry[] = found.skills;
  if (parsed.flags.personal && ctx.home !== undefined) {
    const extra = discover(ctx.fs, { workspaceFolders: [], home: ctx.home, profile: 'claude-code' }).skills;
    const known = new Set(skills.map((s) => s.skillMdPath));
    skills = [...skills, ...extra.filter((s) => !known.has(s.skillMdPath))];
    applyCrossSkillRules(skills);
  }

  if (parsed.flags.format === 'json') {
    const json = {
      skills: skills.map((s) => ({
        name: s.name,
        scope: s.scope,
        kind: s.kind,
        path: displayPath(ctx.cwd, s.dir),
        description: s.description ?? '',
        tokens: s.tokenEstimate,
        invocation: s.invocation,
        ...(s.shadowedBy ? { shadowedBy: displayPath(ctx.cwd, s.shadowedBy) } : {}),
      })),
      agents: found.agents.map((a) => ({
        name: a.name,
        scope: a.scope,
        kind: 'agent',
        path: displayPath(ctx.cwd, a.path),
        description: a.description ?? '',
        tokens: agentTokens(ctx, a),
        model: a.model,
        skills: a.skills,
      })),
    };
    ctx.out(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT_OK;
  }

  const rows: Row[] = [
    ...skills.map((s) => ({
      name: s.shadowedBy ? `${s.name} (shadowed)` : s.name,
      scope: s.scope === 'plugin' && s.root.plugin ? `plugin:${s.root.plugin}` : s.scope,
      kind: s.kind,
      path: displayPath(ctx.cwd, s.dir),
      description: s.description ?? '',
      tokens: s.tokenEstimate,
    })),
    ...found.agents.map((a) => ({ name: a.name, scope: a.scope, kind: 'agent', path: displayPath(ctx.cwd, a.path), description: a.description ?? '', tokens: agentTokens(ctx, a) })),
  ];
  if (rows.length === 0) {
    ctx.out(`No skills or agents found under ${displayPath(ctx.cwd, path.resolve(ctx.cwd, parsed.positionals[0] ?? '.'))}\n`);
    return EXIT_OK;
  }
  const header: Row = { name: 'NAME', scope: 'SCOPE', kind: 'KIND', path: 'PATH', description: 'DESCRIPTION', tokens: 0 };
  const width = (key: 'name' | 'scope' | 'kind' | 'path') => Math.max(...[header, ...rows].map((r) => r[key].length));
  const w = { name: width('name'), scope: width('scope'), kind: width('kind'), path: width('path') };
  const tokW = Math.max(6, ...rows.map((r) => String(r.tokens).length));
  const fmt = (r: Row, tokens: string) =>
    `${r.name.padEnd(w.name)}  ${r.scope.padEnd(w.scope)}  ${r.kind.padEnd(w.kind)}  ${tokens.padStart(tokW)}  ${r.path.padEnd(w.path)}  ${oneLine(r.description, 80)}`.trimEnd();
  const lines = [fmt(header, 'TOKENS'), ...rows.map((r) => fmt(r, String(r.tokens)))];
  ctx.out(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

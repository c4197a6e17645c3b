/** The reference graph (the "Show Reference Graph" command): skills as nodes, cross-skill references as edges. */
import * as path from 'node:path';
import type { Scope, SkillKind } from '../base/types';
import type { SkillEntry } from '../skillmd/model';
import { entryLabel } from '../catalog/treeModel';

export interface GraphNode {
  /** The skill folder (absolute path): unique per indexed skill. */
  id: string;
  /** What the Skills tree calls it: the command it answers (`/hello`), or the name when Claude Code never loads it. */
  label: string;
  name: string;
  scope: Scope;
  kind: SkillKind;
  invocation: string | null;
  problems: { errors: number; warnings: number };
}

export interface GraphEdge {
  /** Node id of the skill whose SKILL.md holds the references. */
  from: string;
  /** Node id of the skill the references point into. */
  to: string;
  /** How many references (occurrences in the body) this edge stands for. */
  count: number;
  /** The distinct targets as written, sorted. */
  targets: string[];
  /** True when at least one of the targets does not exist. */
  missing: boolean;
}

export interface ReferenceGraph {
  /** Sorted by label, then id. */
  nodes: GraphNode[];
  /** Sorted by source, then target node id. */
  edges: GraphEdge[];
}

/** Builds the graph from indexed skills: a cross-skill reference becomes an edge to the indexed skill whose folder holds its resolved path. */
export function buildReferenceGraph(skills: readonly SkillEntry[]): ReferenceGraph {
  const byDir = new Map<string, SkillEntry>();
  // Skill folders only: a command file has no folder of its own for references to land in.
  for (const s of skills) if (s.source === 'skill') byDir.set(path.resolve(s.dir), s);

  const nodes: GraphNode[] = [...byDir.entries()].map(([id, s]) => ({
    id,
    label: entryLabel(s),
    name: s.name,
    scope: s.scope,
    kind: s.kind,
    invocation: s.invocation,
    problems: {
      errors: s.problems.filter((p) => p.severity === 'error').length,
      warnings: s.problems.filter((p) => p.severity === 'warning').length,
    },
  }));
  nodes.sort((a, b) => a.label.localeCompare(b.label) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const edges = new Map<string, GraphEdge & { targetSet: Set<string> }>();
  for (const [from, s] of byDir) {
    const root = path.resolve(s.root.path);
    for (const ref of s.references) {
      if (!ref.crossSkill) continue;
      // Cross-skill references resolve against the skills root: the first segment below it names the skill folder.
      const rel = path.relative(root, path.resolve(ref.resolvedPath));
      const folder = rel.split(path.sep)[0];
      if (!folder || folder === '..' || path.isAbsolute(rel)) continue;
      const to = path.join(root, folder);
      if (to === from || !byDir.has(to)) continue; // a sibling folder that is not an indexed skill is not a node
      const key = `${from}\u0000${to}`;
      let edge = edges.get(key);
      if (!edge) {
        edge = { from, to, count: 0, targets: [], missing: false, targetSet: new Set() };
        edges.set(key, edge);
      }
      edge.count++;
      edge.targetSet.add(ref.target);
      if (!ref.exists) edge.missing = true;
    }
  }
  const edgeList = [...edges.values()].map(({ targetSet, ...edge }): GraphEdge => ({ ...edge, targets: [...targetSet].sort() }));
  edgeList.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
  return { nodes, edges: edgeList };
}

/** The reference graph's data: built from the skills index on request; changes whenever the index changes. */
import type * as vscode from 'vscode';
import { buildReferenceGraph, type ReferenceGraph } from '../../core/references/graph';
import type { SkillEntry } from '../../core/skillmd/model';
import type { SkillsService } from '../skills/service';

export class ReferenceGraphService {
  constructor(private readonly skills: SkillsService) {}

  /** Fires when the skills index changed (the graph may have too). */
  get onDidChange(): vscode.Event<unknown> { return this.skills.onDidChange; }

  /** The graph of every indexed skill (loads the index first when nothing has yet). */
  graph(): ReferenceGraph {
    this.skills.ensureLoaded();
    return buildReferenceGraph(this.skills.index.skills);
  }

  /** The indexed skill a graph node id names (ids are skill folders); undefined for anything else. */
  skillById(id: string): SkillEntry | undefined {
    return this.skills.index.skillByDir(id);
  }
}

/**
 * The quick actions of What Claude Sees, which write real files: a `skillOverrides` entry in the start folder's
 * `.claude/settings.local.json` (created when missing; a file that is not strict JSON is refused, never rewritten),
 * `disable-model-invocation: true` in a file's frontmatter (one WorkspaceEdit, the rest byte-identical), and opening
 * a file with its description selected.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { descriptionRange, setFrontmatterScalar } from '../../core/claude/frontmatterEdit';
import { setSkillOverride, writeSkillOverride } from '../../core/claude/settingsEdit';
import { parseClaudeBoolean, type SkillOverride } from '../../core/claude/values';
import type { ClaudeEntry } from '../../core/claude/types';
import type { ClaudeModel } from '../../core/claude/load';
import { nodeFileSystem } from '../../core/base/fs';
import { toVsRange } from '../adapters/ranges';

export type ActionResult = { ok: true; message: string; file: string } | { ok: false; message: string };

/** The settings file the override actions write: `.claude/settings.local.json` in the start folder. */
export function localSettingsPath(model: ClaudeModel): string {
  return path.join(model.startDir, '.claude', 'settings.local.json');
}

function openDocument(file: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
}

/** The file's document when it has unsaved changes (they are the user's: edits go there, unsaved); else undefined. */
function dirtyDocument(file: string): vscode.TextDocument | undefined {
  const doc = openDocument(file);
  return doc?.isDirty ? doc : undefined;
}

/**
 * Sets (or, with `state` "on", clears) the `skillOverrides` entry of an entry's command name. "on" removes the key
 * when the local file set it, else writes "on" there (the local file outranks project and user settings). An
 * override from managed settings cannot be changed by a local file: refused.
 */
export async function setOverride(model: ClaudeModel, entry: ClaudeEntry, state: SkillOverride): Promise<ActionResult> {
  const file = localSettingsPath(model);
  const shown = path.relative(model.startDir, file).split(path.sep).join('/');
  if (entry.level === 'plugin') return { ok: false, message: `skillOverrides does not apply to plugin skills (${entry.invocation}); manage them with /plugin` };
  const from = model.settings.skillOverrideSources[entry.name];
  const fromScope = model.settings.files.find((f) => f.path === from)?.scope;
  if (fromScope === 'managed') return { ok: false, message: `managed settings (${from}) set skillOverrides for ${entry.name}; a local setting cannot change it` };
  const value = state === 'on' && from === file ? undefined : state;
  const doc = dirtyDocument(file);
  let saved = true;
  if (doc) {
    // Unsaved changes are the user's: the edit goes into the document, left unsaved.
    const result = setSkillOverride(doc.getText(), entry.name, value);
    if (!result.ok) return { ok: false, message: `${shown}: ${result.message}` };
    if (result.changed) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), result.text);
      if (!(await vscode.workspace.applyEdit(edit))) return { ok: false, message: `cannot write ${shown}: the editor refused the edit` };
      saved = false;
    }
  } else {
    const written = writeSkillOverride(nodeFileSystem, model.startDir, file, entry.name, value);
    if (!written.ok) return { ok: false, message: `${shown}: ${written.message}` };
  }
  const what = value === undefined ? `no longer overridden in ${shown}` : `set to "${value}" in ${shown}`;
  return { ok: true, file, message: `${entry.invocation ?? entry.name}: skillOverrides ${what}${saved ? '' : ' (unsaved: the file had unsaved changes; save it to apply)'}` };
}

/** Sets `disable-model-invocation: true` in the entry's frontmatter (saved when the file had no unsaved changes). */
export async function disableModelInvocation(entry: ClaudeEntry): Promise<ActionResult> {
  const uri = vscode.Uri.file(entry.path);
  const name = path.basename(path.dirname(entry.path)) + '/' + path.basename(entry.path);
  let doc: vscode.TextDocument;
  try { doc = await vscode.workspace.openTextDocument(uri); } catch (e) { return { ok: false, message: `cannot open ${name}: ${(e as Error).message}` }; }
  const wasDirty = doc.isDirty;
  const result = setFrontmatterScalar(doc.getText(), 'disable-model-invocation', 'true', (v) => parseClaudeBoolean(v) === true);
  if (!result.ok) return { ok: false, message: `${name}: ${result.message}` };
  if (result.edits.length) {
    const edit = new vscode.WorkspaceEdit();
    for (const e of result.edits) edit.replace(uri, toVsRange(e), e.text);
    if (!(await vscode.workspace.applyEdit(edit))) return { ok: false, message: `${name}: the editor refused the edit` };
    if (!wasDirty && !(await doc.save())) return { ok: false, message: `${name}: the file could not be saved` };
  }
  return { ok: true, file: entry.path, message: `${entry.invocation ?? entry.name}: disable-model-invocation: true in ${name}${wasDirty ? ' (unsaved: save the file to apply it)' : ''}` };
}

/** Opens the entry's file with the `description` value selected (at the top when the frontmatter has none). */
export async function openDescription(entry: ClaudeEntry, column?: vscode.ViewColumn): Promise<ActionResult> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(entry.path));
  const range = descriptionRange(doc.getText());
  const selection = range ? toVsRange(range) : new vscode.Range(0, 0, 0, 0);
  const editor = await vscode.window.showTextDocument(doc, { selection, preview: false, ...(column !== undefined ? { viewColumn: column } : {}) });
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return range
    ? { ok: true, file: entry.path, message: `${entry.invocation ?? entry.name}: the description is selected (${doc.getText(selection).length} characters); Claude Code keeps ${entry.meta.whenToUse ? 'description + when_to_use' : 'it'} up to skillListingMaxDescChars` }
    : { ok: true, file: entry.path, message: `${entry.invocation ?? entry.name} has no description in its frontmatter; Claude Code uses the first paragraph of the body` };
}

/** Opens the entry's file. */
export async function openEntry(entry: ClaudeEntry): Promise<ActionResult> {
  await vscode.window.showTextDocument(vscode.Uri.file(entry.path), { preview: false });
  return { ok: true, file: entry.path, message: `opened ${entry.path}` };
}

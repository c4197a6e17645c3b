/** The VS Code selector of the documents the language features apply to (the kinds and their validation are core/editor/documents). */
import type * as vscode from 'vscode';
import { SKILL_DOCUMENT_PATTERNS } from '../../core/editor/documents';

export { skillDocKind, validateDocumentText, type SkillDocKind, type SkillDocResult } from '../../core/editor/documents';

/** Documents the language features apply to. */
export const SKILL_DOCUMENTS: vscode.DocumentSelector = SKILL_DOCUMENT_PATTERNS.map((pattern) => ({ language: 'markdown', scheme: 'file', pattern }));

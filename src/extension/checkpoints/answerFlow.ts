/**
 * The multi-step QuickPick/InputBox that asks a checkpoint's questions: one step per question (the workbench
 * shows the `n/N` counter from `step`/`totalSteps`), then a last step that confirms writing the answers and
 * resuming. Back keeps answers; Escape returns undefined (nothing written).
 */
import * as vscode from 'vscode';
import { checkAnswer, normaliseConfirm, splitMulti } from '../../core/checkpoint/answers';
import type { ContextQuestion } from '../../core/checkpoint/context';

/** What tests (and the log) can see of the step on screen. */
export interface ActiveStep {
  /** The question's id; `''` on the last (confirm) step. */
  questionId: string;
  step: number;
  totalSteps: number;
  /** `single`, `multi`, `confirm` (QuickPicks), `text` or `other` (InputBoxes), `finish` (the last step). */
  kind: ContextQuestion['type'] | 'other' | 'finish';
  input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox;
}

export interface FlowHooks {
  onDidShowStep?(step: ActiveStep | undefined): void;
}

/** The last step: what Resume does here (terminal or clipboard). */
export interface FinishStep {
  /** `Resume` item's description, e.g. "run the resume command in the Skillflow terminal". */
  resumeDetail: string;
}

export type FlowResult = { answers: Record<string, string>; action: 'resume' | 'write' };

type StepResult = { kind: 'value'; value: string } | { kind: 'back' } | { kind: 'cancel' };

const OTHER_LABEL = 'Other…';

/**
 * Placeholders: one style for every step, an instruction that never repeats the question (the title holds it), short
 * enough to fit the input beside a multi-select's checkbox, "n Selected" count and OK button (~50 characters).
 */
export const PLACEHOLDERS = {
  single: 'Choose one answer',
  singleOther: 'Choose one answer, or Other… to type your own',
  multi: 'Choose one or more (Space toggles)',
  multiOther: 'Choose one or more, or Other… (Space toggles)',
  multiEmpty: 'Choose at least one (Space toggles)',
  confirm: 'Choose Yes or No',
  text: 'Type your answer',
  other: 'Type your own answer',
  otherMulti: 'Type your own answers, separated by ", "',
  finish: 'Choose what to do with the answers',
} as const;

interface ChoiceItem extends vscode.QuickPickItem {
  value?: string;
  other?: boolean;
}

function shortText(text: string, max = 90): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Asks `questions` in order, then the last step (Resume / Write Only / Back), and returns the answers by id
 * (checked and normalised) with the chosen action, or undefined when the user pressed Escape.
 * `initial` pre-fills answers (e.g. kept across a reload).
 */
export async function askQuestions(skill: string, questions: readonly ContextQuestion[], initial: Readonly<Record<string, string>>, finish: FinishStep, hooks: FlowHooks = {}): Promise<FlowResult | undefined> {
  const answers: Record<string, string> = { ...initial };
  const totalSteps = questions.length + 1;
  let i = 0;
  try {
    for (;;) {
      if (i === questions.length) {
        const action = await askFinish(skill, questions.length, finish, totalSteps, hooks);
        if (action === 'cancel') return undefined;
        if (action === 'back') { i = Math.max(0, i - 1); continue; }
        const out: Record<string, string> = {};
        for (const q of questions) out[q.id] = answers[q.id];
        return { answers: out, action };
      }
      const q = questions[i];
      const result = await askOne(skill, q, i + 1, totalSteps, answers[q.id], hooks);
      if (result.kind === 'cancel') return undefined;
      if (result.kind === 'back') {
        i = Math.max(0, i - 1);
        continue;
      }
      answers[q.id] = result.value;
      i++;
    }
  } finally {
    hooks.onDidShowStep?.(undefined);
  }
}

function title(skill: string, q: ContextQuestion): string {
  return `${skill} · ${q.id}: ${shortText(q.text || q.id)}`;
}

/** `Write 4 answers and resume code-review?` */
export function finishTitle(skill: string, count: number): string {
  return `Write ${count} answer${count === 1 ? '' : 's'} and resume ${skill}?`;
}

async function askFinish(skill: string, count: number, finish: FinishStep, totalSteps: number, hooks: FlowHooks): Promise<'resume' | 'write' | 'back' | 'cancel'> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  setBasics(qp, finishTitle(skill, count), totalSteps, totalSteps, true);
  qp.placeholder = PLACEHOLDERS.finish;
  const items: ChoiceItem[] = [
    { label: '$(debug-continue) Resume', value: 'resume', description: `write the answers, then ${finish.resumeDetail}` },
    { label: '$(save) Write Only', value: 'write', description: 'write the answers; resume later' },
    { label: '$(arrow-left) Back', value: 'back', description: 'change the last answer' },
  ];
  qp.items = items;
  qp.activeItems = [items[0]];
  const picked = await run<StepResult>(qp, () => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    return item ? { kind: 'value', value: item.value ?? '' } : undefined;
  }, hooks, { questionId: '', step: totalSteps, totalSteps, kind: 'finish' });
  if (picked.kind !== 'value') return picked.kind;
  return picked.value as 'resume' | 'write' | 'back';
}

async function askOne(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks): Promise<StepResult> {
  if (q.type === 'text' || ((q.type === 'single' || q.type === 'multi') && q.options.length === 0 && !q.allowOther)) {
    return askText(skill, q, step, totalSteps, previous, hooks, 'text', step > 1);
  }
  if (q.type === 'confirm') return askConfirm(skill, q, step, totalSteps, previous, hooks);
  for (;;) {
    const picked = q.type === 'multi' ? await askMulti(skill, q, step, totalSteps, previous, hooks) : await askSingle(skill, q, step, totalSteps, previous, hooks);
    if (picked.kind !== 'other') return picked;
    // "Other…": free text; Back returns to the list of this same question.
    const other = await askText(skill, q, step, totalSteps, picked.prefill, hooks, 'other', true);
    if (other.kind === 'back') continue;
    if (other.kind === 'cancel') return other;
    const value = q.type === 'multi' ? [...picked.chosen, ...splitMulti(other.value)].join(', ') : other.value;
    const checked = checkAnswer(q, value);
    return checked.ok ? { kind: 'value', value: checked.value } : { kind: 'value', value };
  }
}

/** Runs one QuickInput until accept, Back or hide; `onAccept` returns undefined to keep it open. */
function run<T>(input: vscode.QuickPick<ChoiceItem> | vscode.InputBox, onAccept: () => T | undefined, hooks: FlowHooks, step: Omit<ActiveStep, 'input'>): Promise<T | { kind: 'back' } | { kind: 'cancel' }> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: T | { kind: 'back' } | { kind: 'cancel' }) => {
      if (done) return;
      done = true;
      resolve(value);
      input.dispose();
    };
    const subscriptions = [
      input.onDidAccept(() => {
        const value = onAccept();
        if (value !== undefined) finish(value);
      }),
      input.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) finish({ kind: 'back' });
      }),
      input.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        finish({ kind: 'cancel' });
      }),
    ];
    input.show();
    hooks.onDidShowStep?.({ ...step, input: input as ActiveStep['input'] });
  });
}

function setBasics(input: vscode.QuickPick<ChoiceItem> | vscode.InputBox, text: string, step: number, totalSteps: number, back: boolean): void {
  input.title = text;
  input.step = step;
  input.totalSteps = totalSteps;
  input.ignoreFocusOut = true;
  input.buttons = back ? [vscode.QuickInputButtons.Back] : [];
}

type PickResult = StepResult | { kind: 'other'; prefill: string; chosen: string[] };

function askSingle(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks): Promise<PickResult> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  setBasics(qp, title(skill, q), step, totalSteps, step > 1);
  qp.placeholder = q.allowOther ? PLACEHOLDERS.singleOther : PLACEHOLDERS.single;
  const items: ChoiceItem[] = q.options.map((o) => ({ label: o, value: o }));
  const isOtherAnswer = previous !== undefined && previous !== '' && !q.options.includes(previous);
  if (q.allowOther) items.push({ label: OTHER_LABEL, other: true, alwaysShow: true, description: isOtherAnswer ? previous : 'type your own answer' });
  qp.items = items;
  const active = items.find((it) => (isOtherAnswer ? it.other : it.value === previous));
  if (active) qp.activeItems = [active];
  return run<PickResult>(qp, () => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    if (!item) return undefined;
    if (item.other) return { kind: 'other', prefill: qp.value || (isOtherAnswer ? previous ?? '' : ''), chosen: [] };
    return { kind: 'value', value: item.value ?? item.label };
  }, hooks, { questionId: q.id, step, totalSteps, kind: 'single' });
}

function askMulti(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks): Promise<PickResult> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  setBasics(qp, title(skill, q), step, totalSteps, step > 1);
  qp.canSelectMany = true;
  qp.placeholder = q.allowOther ? PLACEHOLDERS.multiOther : PLACEHOLDERS.multi;
  const before = previous ? splitMulti(previous, q.options) : [];
  const otherBefore = before.filter((v) => !q.options.includes(v));
  const items: ChoiceItem[] = q.options.map((o) => ({ label: o, value: o }));
  if (q.allowOther) items.push({ label: OTHER_LABEL, other: true, alwaysShow: true, description: otherBefore.length ? otherBefore.join(', ') : 'add your own' });
  qp.items = items;
  qp.selectedItems = items.filter((it) => (it.other ? otherBefore.length > 0 : before.includes(it.value ?? '')));
  return run<PickResult>(qp, () => {
    const chosen = qp.selectedItems.filter((it) => !it.other).map((it) => it.value ?? it.label);
    if (qp.selectedItems.some((it) => it.other)) return { kind: 'other', prefill: otherBefore.join(', '), chosen };
    if (chosen.length === 0) {
      qp.placeholder = PLACEHOLDERS.multiEmpty;
      return undefined;
    }
    return { kind: 'value', value: chosen.join(', ') };
  }, hooks, { questionId: q.id, step, totalSteps, kind: 'multi' });
}

function askConfirm(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks): Promise<StepResult> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  setBasics(qp, title(skill, q), step, totalSteps, step > 1);
  qp.placeholder = PLACEHOLDERS.confirm;
  const items: ChoiceItem[] = [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }];
  qp.items = items;
  const prev = previous ? normaliseConfirm(previous) : undefined;
  const active = items.find((it) => it.value === prev);
  if (active) qp.activeItems = [active];
  return run<StepResult>(qp, () => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    return item ? { kind: 'value', value: item.value ?? item.label } : undefined;
  }, hooks, { questionId: q.id, step, totalSteps, kind: 'confirm' });
}

function askText(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks, kind: 'text' | 'other', back: boolean): Promise<StepResult> {
  const box = vscode.window.createInputBox();
  setBasics(box, title(skill, q), step, totalSteps, back);
  box.placeholder = kind === 'text' ? PLACEHOLDERS.text : q.type === 'multi' ? PLACEHOLDERS.otherMulti : PLACEHOLDERS.other;
  // The full question when the title had to shorten it. No keys of our own: the workbench adds its own "(Press
  // 'Enter' to confirm or 'Escape' to cancel)" after a prompt, or says so alone without one.
  const full = q.text.replace(/\s+/g, ' ').trim();
  box.prompt = shortText(q.text) !== full ? full : undefined;
  box.value = previous ?? '';
  const validate = (v: string) => (v.trim() === '' ? 'An answer is required' : undefined);
  const subscription = box.onDidChangeValue((v) => { box.validationMessage = validate(v); });
  return run<StepResult>(box, () => {
    const message = validate(box.value);
    box.validationMessage = message;
    return message ? undefined : { kind: 'value', value: box.value.trim() };
  }, hooks, { questionId: q.id, step, totalSteps, kind }).finally(() => subscription.dispose());
}

/**
 * The multi-step QuickPick/InputBox that asks a checkpoint's questions: one step per question with a
 * `n/N` counter, a Back button that keeps answers, and Escape that returns undefined (nothing written).
 */
import * as vscode from 'vscode';
import { type ContextQuestion, checkAnswer, normaliseConfirm, splitMulti } from '../../core/checkpoint';

/** What tests (and the log) can see of the step on screen. */
export interface ActiveStep {
  questionId: string;
  step: number;
  totalSteps: number;
  /** `single`, `multi`, `confirm` (QuickPicks), `text` or `other` (InputBoxes). */
  kind: ContextQuestion['type'] | 'other';
  input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox;
}

export interface FlowHooks {
  onDidShowStep?(step: ActiveStep | undefined): void;
}

type StepResult = { kind: 'value'; value: string } | { kind: 'back' } | { kind: 'cancel' };

const OTHER_LABEL = 'Other…';

interface ChoiceItem extends vscode.QuickPickItem {
  value?: string;
  other?: boolean;
}

function shortText(text: string, max = 90): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Asks `questions` in order and returns the answers by id (already checked and normalised), or
 * undefined when the user pressed Escape. `initial` pre-fills answers (e.g. kept across a reload).
 */
export async function askQuestions(skill: string, questions: readonly ContextQuestion[], initial: Readonly<Record<string, string>>, hooks: FlowHooks = {}): Promise<Record<string, string> | undefined> {
  const answers: Record<string, string> = { ...initial };
  let i = 0;
  try {
    while (i < questions.length) {
      const q = questions[i];
      const result = await askOne(skill, q, i + 1, questions.length, answers[q.id], hooks);
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
  const out: Record<string, string> = {};
  for (const q of questions) out[q.id] = answers[q.id];
  return out;
}

function title(skill: string, q: ContextQuestion): string {
  return `${skill} · ${q.id}: ${shortText(q.text || q.id)}`;
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

function basics(input: vscode.QuickPick<ChoiceItem> | vscode.InputBox, skill: string, q: ContextQuestion, step: number, totalSteps: number, back: boolean): void {
  input.title = title(skill, q);
  input.step = step;
  input.totalSteps = totalSteps;
  input.ignoreFocusOut = true;
  input.buttons = back ? [vscode.QuickInputButtons.Back] : [];
}

type PickResult = StepResult | { kind: 'other'; prefill: string; chosen: string[] };

function askSingle(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks): Promise<PickResult> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  basics(qp, skill, q, step, totalSteps, step > 1);
  qp.placeholder = q.allowOther ? `${q.text} (choose one, or Other…)` : `${q.text} (choose one)`;
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
  basics(qp, skill, q, step, totalSteps, step > 1);
  qp.canSelectMany = true;
  const hint = `${q.text} (Space toggles, Enter accepts${q.allowOther ? '; Other… adds your own' : ''})`;
  qp.placeholder = hint;
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
      qp.placeholder = `Select at least one option — ${hint}`;
      return undefined;
    }
    return { kind: 'value', value: chosen.join(', ') };
  }, hooks, { questionId: q.id, step, totalSteps, kind: 'multi' });
}

function askConfirm(skill: string, q: ContextQuestion, step: number, totalSteps: number, previous: string | undefined, hooks: FlowHooks): Promise<StepResult> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  basics(qp, skill, q, step, totalSteps, step > 1);
  qp.placeholder = `${q.text} (yes or no)`;
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
  basics(box, skill, q, step, totalSteps, back);
  box.prompt = kind === 'other' ? `${q.text} — your own answer${q.type === 'multi' ? ' (separate several with ", ")' : ''}` : q.text;
  box.placeholder = kind === 'other' ? 'Type your answer and press Enter' : 'Type your answer and press Enter (Escape cancels; nothing is written)';
  box.value = previous ?? '';
  const validate = (v: string) => (v.trim() === '' ? 'An answer is required' : undefined);
  const subscription = box.onDidChangeValue((v) => { box.validationMessage = validate(v); });
  return run<StepResult>(box, () => {
    const message = validate(box.value);
    box.validationMessage = message;
    return message ? undefined : { kind: 'value', value: box.value.trim() };
  }, hooks, { questionId: q.id, step, totalSteps, kind }).finally(() => subscription.dispose());
}

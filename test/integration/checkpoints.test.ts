// Checkpoints (F4) in a real extension host: the view's data, the notification, the Answer flow driven through
// the real QuickPick/InputBox with workbench commands, the file on disk, resume, Escape, a file changed mid-flow,
// path refusal and Handle Skill Output.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointsApi } from '../../src/extension/checkpoints';
import { fakeClaudeLogPath, getApi, sleep, waitFor, workspaceDir } from './util';

const CONTEXT = `---
skill: code-review
args: "PR=123"
status: AWAIT
created: 2026-11-21T14:30:00Z
---
# Checkpoint: code-review

## Progress Summary
Reviewed 12 of 20 files; paused because the base branch is ambiguous.

## Questions

### Q1: Which branch should the review compare against?
Type: single
Options:
- main
- develop
Answer:

### Q2: Which areas should the review cover?
Type: multi
Options:
- correctness
- tests
- security
Allow-Other: yes
Answer:

### Q3: Anything to skip?
Type: text
Answer:

### Q4: Post the review as a comment?
Type: confirm
Answer:
`;

const ONE_QUESTION = `---
skill: deploy
created: 2026-11-21T10:00:00Z
---
# Checkpoint: deploy

## Questions

### Q1: Which environment?
Type: single
Options:
- staging
- production
Allow-Other: yes
Answer:
`;

const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

describe('checkpoints', function () {
  this.timeout(60_000);
  let api: CheckpointsApi;
  const written: string[] = [];

  const rel = (name: string) => `.agent/tmp/${name}`;
  const abs = (name: string) => path.join(workspaceDir(), '.agent', 'tmp', name);
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(abs(name)), { recursive: true });
    fs.writeFileSync(abs(name), text);
    written.push(abs(name));
  };
  const read = (name: string) => fs.readFileSync(abs(name), 'utf8');

  async function waitStep(id: string, step?: number) {
    return waitFor(() => {
      const s = api.activeStep();
      return s && s.questionId === id && (step === undefined || s.step === step) && s;
    }, 10_000, `question ${id}${step ? ` at step ${step}` : ''} on screen`);
  }
  const pick = (s: { input: unknown }) => s.input as vscode.QuickPick<vscode.QuickPickItem>;
  /** The last step (Resume / Write Only / Back) on screen. */
  async function waitFinish() {
    return waitFor(() => {
      const s = api.activeStep();
      return s && s.kind === 'finish' && s;
    }, 10_000, 'the last step (Resume / Write Only / Back)');
  }
  /** Picks an item of the last step by its label's text. */
  async function choose(label: 'Resume' | 'Write Only' | 'Back') {
    const s = await waitFinish();
    const item = pick(s).items.find((i) => i.label.endsWith(label));
    assert.ok(item, `no ${label} item`);
    pick(s).activeItems = [item];
    await sleep(150);
    await accept();
  }
  const box = (s: { input: unknown }) => s.input as vscode.InputBox;

  before(async () => {
    api = (await getApi<{ checkpoints: CheckpointsApi }>()).checkpoints;
    await vscode.workspace.getConfiguration('skillflow').update('resume.mode', 'terminal', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    for (const f of written) fs.rmSync(f, { force: true });
    await vscode.workspace.getConfiguration('skillflow').update('resume.mode', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('lists the demo context file with skill and answered/total', async () => {
    await api.refresh();
    const demo = api.getCheckpoints().find((c) => c.relPath === '.agent/tmp/code-review-context.md');
    assert.ok(demo, `not listed: ${api.getCheckpoints().map((c) => c.relPath).join(', ')}`);
    assert.deepEqual([demo.skill, demo.answered, demo.total, demo.unanswered, demo.valid], ['code-review', 0, 4, ['Q1', 'Q2', 'Q3', 'Q4'], true]);
    assert.ok(api.treeView.badge && api.treeView.badge.value >= 1, 'the view shows a pending badge');
  });

  it('notifies once when a new context file with unanswered questions appears', async () => {
    const before = api.notified().length;
    write('it-notify-context.md', ONE_QUESTION);
    const info = await waitFor(() => api.notified().find((c) => c.relPath === rel('it-notify-context.md')), 10_000, 'the notification');
    assert.deepEqual([info.skill, info.unanswered], ['deploy', ['Q1']]);
    // The same content again (a touch) does not notify again.
    fs.writeFileSync(abs('it-notify-context.md'), ONE_QUESTION);
    await sleep(800);
    await api.whenIdle();
    assert.equal(api.notified().filter((c) => c.relPath === rel('it-notify-context.md')).length, 1);
    assert.equal(api.notified().length, before + 1);
    // A file whose questions are all answered does not notify.
    write('it-answered-context.md', ONE_QUESTION.replace('Answer:\n', 'Answer: staging\n'));
    await sleep(800);
    await api.whenIdle();
    assert.equal(api.notified().some((c) => c.relPath === rel('it-answered-context.md')), false);
  });

  it('answers single, multi, text and confirm through the real QuickPick with Back, writes only the Answer fields, and resumes in the Skillflow terminal', async () => {
    write('it-flow-context.md', CONTEXT);
    // A new Skillflow terminal: its shell starts while the command waits.
    for (const t of vscode.window.terminals.filter((term) => term.name === 'Skillflow')) t.dispose();
    const logBefore = fs.existsSync(fakeClaudeLogPath()) ? fs.readFileSync(fakeClaudeLogPath(), 'utf8').length : 0;
    const done = api.answer(vscode.Uri.file(abs('it-flow-context.md')));

    const s1 = await waitStep('Q1', 1);
    // Four questions and the last step: the counter runs 1/5 … 5/5; the question is in the title only.
    assert.deepEqual([s1.kind, s1.totalSteps, pick(s1).title, pick(s1).items.map((i) => i.label)], ['single', 5, 'code-review · Q1: Which branch should the review compare against?', ['main', 'develop']]);
    assert.equal(pick(s1).placeholder, 'Choose one answer');
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => pick(s1).activeItems[0]?.label === 'develop', 5000, 'develop to become active');
    await accept();

    const s2 = await waitStep('Q2', 2);
    assert.equal(s2.kind, 'multi');
    assert.equal(pick(s2).placeholder, 'Choose one or more, or Other… (Space toggles)');
    assert.equal(pick(s2).canSelectMany, true);
    assert.deepEqual(pick(s2).items.map((i) => i.label), ['correctness', 'tests', 'security', 'Other…']);
    pick(s2).selectedItems = pick(s2).items.filter((i) => i.label === 'tests' || i.label === 'security');
    await sleep(200);
    await accept();

    const hostile = `vendor/ and it's "generated"; $(rm -rf ~) \`x\``;
    const s3 = await waitStep('Q3', 3);
    assert.equal(s3.kind, 'text');
    assert.equal(box(s3).placeholder, 'Type your answer');
    // No keys of our own in the prompt: the workbench shows its "Press 'Enter' to confirm…" once.
    assert.equal(box(s3).prompt, undefined);
    box(s3).value = hostile;
    await sleep(100);
    await accept();

    const s4 = await waitStep('Q4', 4);
    assert.equal(s4.kind, 'confirm');
    // Back: Q3 comes again with its answer kept.
    await vscode.commands.executeCommand('workbench.action.quickInputBack');
    const s3again = await waitStep('Q3', 3);
    assert.equal(box(s3again).value, hostile);
    await accept();
    const s4again = await waitStep('Q4', 4);
    assert.deepEqual(pick(s4again).items.map((i) => i.label), ['Yes', 'No']);
    assert.equal(pick(s4again).placeholder, 'Choose Yes or No');
    await accept(); // Yes is the first (active) item

    // The last step: write the 4 answers and resume, write only, or go back; nothing is on disk yet.
    const last = await waitFinish();
    assert.deepEqual([last.step, last.totalSteps, pick(last).title], [5, 5, 'Write 4 answers and resume code-review?']);
    assert.deepEqual(pick(last).items.map((i) => i.label), ['$(debug-continue) Resume', '$(save) Write Only', '$(arrow-left) Back']);
    assert.equal(pick(last).items[0].description, 'write the answers, then run the resume command in the Skillflow terminal');
    assert.equal(read('it-flow-context.md'), CONTEXT);
    const messagesBefore = api.messages().length;
    await accept(); // Resume is active

    const outcome = await done;
    const doneAt = Date.now();
    assert.equal(outcome.result, 'resumed', JSON.stringify(outcome));
    assert.equal(read('it-flow-context.md'), CONTEXT
      .replace('- develop\nAnswer:\n', '- develop\nAnswer: develop\n')
      .replace('Allow-Other: yes\nAnswer:\n', 'Allow-Other: yes\nAnswer: tests, security\n')
      .replace('Type: text\nAnswer:\n', `Type: text\nAnswer: ${hostile}\n`)
      .replace('Type: confirm\nAnswer:\n', 'Type: confirm\nAnswer: yes\n'));
    assert.ok(outcome.result === 'resumed');
    assert.equal(outcome.resume.mode, 'terminal');
    assert.match(outcome.resume.command, /claude '\/code-review resume CONTEXT_PATH=\.agent\/tmp\/it-flow-context\.md'$/);
    const terminal = vscode.window.terminals.find((t) => t.name === 'Skillflow');
    assert.ok(terminal, 'a terminal named Skillflow is open');
    const logged = await waitFor(() => {
      const text = fs.existsSync(fakeClaudeLogPath()) ? fs.readFileSync(fakeClaudeLogPath(), 'utf8').slice(logBefore) : '';
      return text.includes('it-flow-context.md') && text;
    }, 20_000, 'the stand-in claude to record the resume call');
    assert.ok(logged.includes('/code-review resume CONTEXT_PATH=.agent/tmp/it-flow-context.md\n---\n'), logged);
    // "Resumed…" comes when the command is sent to a ready shell (its integration), not while the shell still starts:
    // the command runs within moments of the message.
    assert.equal(outcome.result === 'resumed' && outcome.resume.via, 'shell ready', 'the line was typed once the shell reported its prompt');
    assert.ok(terminal.shellIntegration, 'the shell was ready when the line was sent');
    const lag = Date.now() - doneAt;
    console.log(`      the resume command ran ${lag} ms after the Resumed message`);
    assert.ok(lag < 5_000, `the command ran ${lag} ms after the message`);
    const info = api.getCheckpoints().find((c) => c.relPath === rel('it-flow-context.md'));
    assert.deepEqual([info?.answered, info?.total], [4, 4]);
    // "Resumed…" offers Show Terminal.
    assert.deepEqual(api.messages().slice(messagesBefore), [{ message: 'Resumed code-review in the Skillflow terminal.', buttons: ['Show Terminal'] }]);
    assert.deepEqual(api.lastResume(), outcome.resume);
  });

  it('the last step: Back returns to the last question with its answer, Write Only writes without resuming', async () => {
    write('it-write-only-context.md', ONE_QUESTION);
    const done = api.answer(rel('it-write-only-context.md'));
    const s1 = await waitStep('Q1', 1);
    assert.deepEqual([s1.totalSteps, pick(s1).placeholder], [2, 'Choose one answer, or Other… to type your own']);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => pick(s1).activeItems[0]?.label === 'production', 5000, 'production to become active');
    await accept();
    const last = await waitFinish();
    assert.deepEqual([last.step, last.totalSteps, pick(last).title], [2, 2, 'Write 1 answer and resume deploy?']);
    await choose('Back');
    const again = await waitStep('Q1', 1);
    assert.equal(pick(again).activeItems[0]?.label, 'production');
    await accept();
    // The Back button of the last step does the same.
    await waitFinish();
    await vscode.commands.executeCommand('workbench.action.quickInputBack');
    await waitStep('Q1', 1);
    await accept();
    const resumesBefore = api.lastResume();
    await choose('Write Only');
    const outcome = await done;
    assert.deepEqual(outcome, { result: 'written', answers: { Q1: 'production' } });
    assert.equal(read('it-write-only-context.md'), ONE_QUESTION.replace('Allow-Other: yes\nAnswer:\n', 'Allow-Other: yes\nAnswer: production\n'));
    assert.equal(api.lastResume(), resumesBefore, 'Write Only does not resume');
    assert.match(api.messages().at(-1)?.message ?? '', /^Wrote 1 answer into \.agent\/tmp\/it-write-only-context\.md/);
  });

  it('refuses a context file whose name holds a control character (Ctrl-U): nothing asked, nothing typed', async () => {
    const name = 'x\u0015touch PWNED #-context.md';
    write(name, ONE_QUESTION);
    const terminalsBefore = vscode.window.terminals.length;
    const outcome = await api.answer(vscode.Uri.file(abs(name)));
    assert.deepEqual(outcome, { result: 'error', message: `CONTEXT_PATH contains the control character U+0015 (Ctrl-U); rename the file: ${abs('x\\u0015touch PWNED #-context.md')}` });
    assert.equal(api.activeStep(), undefined);
    assert.equal(read(name), ONE_QUESTION);
    assert.equal(vscode.window.terminals.length, terminalsBefore);
    assert.equal(fs.existsSync(path.join(workspaceDir(), 'PWNED')), false);
    // The view lists it as refused, with the reason.
    await api.refresh();
    const info = api.getCheckpoints().find((c) => c.relPath === rel(name));
    assert.deepEqual([info?.valid, info?.problems], [false, ['CONTEXT_PATH contains the control character U+0015 (Ctrl-U); rename the file']]);
  });

  it('Escape cancels and writes nothing', async () => {
    write('it-escape-context.md', CONTEXT);
    const done = api.answer(rel('it-escape-context.md'));
    await waitStep('Q1', 1);
    await accept();
    await waitStep('Q2', 2);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(await done, { result: 'cancelled' });
    assert.equal(read('it-escape-context.md'), CONTEXT);
  });

  it('a file changed on disk during the flow is not overwritten: it is reloaded and asked again', async () => {
    write('it-changed-context.md', ONE_QUESTION);
    await vscode.workspace.getConfiguration('skillflow').update('resume.mode', 'clipboard', vscode.ConfigurationTarget.Workspace);
    try {
      const done = api.answer(rel('it-changed-context.md'));
      const s1 = await waitStep('Q1', 1);
      assert.equal(s1.totalSteps, 2);
      const changed = ONE_QUESTION.replace('## Questions', '## Progress Summary\nThe skill added a question.\n\n## Questions')
        + '\n### Q2: Also run the smoke tests?\nType: confirm\nAnswer:\n';
      fs.writeFileSync(abs('it-changed-context.md'), changed);
      await accept(); // staging
      await choose('Resume');
      // Nothing was written over the new content; the flow starts again on the reloaded file with Q1's answer kept.
      const again = await waitFor(() => {
        const s = api.activeStep();
        return s && s.questionId === 'Q1' && s.totalSteps === 3 && s;
      }, 10_000, 'the reloaded flow');
      assert.equal(read('it-changed-context.md'), changed);
      assert.equal(pick(again).activeItems[0]?.label, 'staging');
      await accept();
      await waitStep('Q2', 2);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await sleep(150);
      await accept(); // No
      await choose('Resume');
      const outcome = await done;
      assert.equal(outcome.result, 'resumed', JSON.stringify(outcome));
      assert.equal(read('it-changed-context.md'), changed.replace('- production\nAllow-Other: yes\nAnswer:\n', '- production\nAllow-Other: yes\nAnswer: staging\n').replace('Type: confirm\nAnswer:\n', 'Type: confirm\nAnswer: no\n'));
      assert.ok(outcome.result === 'resumed');
      assert.deepEqual([outcome.resume.mode, outcome.resume.command], ['clipboard', "claude '/deploy resume CONTEXT_PATH=.agent/tmp/it-changed-context.md'"]);
      assert.equal(await vscode.env.clipboard.readText(), "claude '/deploy resume CONTEXT_PATH=.agent/tmp/it-changed-context.md'");
    } finally {
      await vscode.workspace.getConfiguration('skillflow').update('resume.mode', 'terminal', vscode.ConfigurationTarget.Workspace);
    }
  });

  it('Other… on a single-choice question with Allow-Other opens an InputBox; Back returns to the list', async () => {
    write('it-other-context.md', ONE_QUESTION);
    await vscode.workspace.getConfiguration('skillflow').update('resume.mode', 'clipboard', vscode.ConfigurationTarget.Workspace);
    try {
      const done = api.answer(rel('it-other-context.md'));
      const s1 = await waitStep('Q1', 1);
      assert.deepEqual(pick(s1).items.map((i) => i.label), ['staging', 'production', 'Other…']);
      pick(s1).activeItems = [pick(s1).items[2]];
      await sleep(150);
      await accept();
      const other = await waitFor(() => api.activeStep()?.kind === 'other' && api.activeStep(), 10_000, 'the Other… InputBox');
      await vscode.commands.executeCommand('workbench.action.quickInputBack');
      const list = await waitFor(() => api.activeStep()?.kind === 'single' && api.activeStep(), 10_000, 'back to the list');
      assert.notEqual(list.input, other.input);
      pick(list).activeItems = [pick(list).items[2]];
      await sleep(150);
      await accept();
      const other2 = await waitFor(() => api.activeStep()?.kind === 'other' && api.activeStep(), 10_000, 'the Other… InputBox again');
      box(other2).value = 'canary (10%)';
      await sleep(100);
      await accept();
      await choose('Resume');
      const outcome = await done;
      assert.equal(outcome.result, 'resumed');
      assert.equal(read('it-other-context.md'), ONE_QUESTION.replace('Allow-Other: yes\nAnswer:\n', 'Allow-Other: yes\nAnswer: canary (10%)\n'));
    } finally {
      await vscode.workspace.getConfiguration('skillflow').update('resume.mode', 'terminal', vscode.ConfigurationTarget.Workspace);
    }
  });

  it('refuses a CONTEXT_PATH outside the workspace folder and reports the checkpoint protocol errors', async () => {
    const outside = path.join(path.dirname(workspaceDir()), 'outside-context.md');
    fs.writeFileSync(outside, ONE_QUESTION);
    try {
      assert.deepEqual(await api.answer('../outside-context.md'), { result: 'error', message: 'CONTEXT_PATH is outside the workspace folder: ../outside-context.md' });
      fs.symlinkSync(outside, abs('it-link-out-context.md'));
      written.push(abs('it-link-out-context.md'));
      assert.deepEqual(await api.answer(rel('it-link-out-context.md')), { result: 'error', message: `CONTEXT_PATH is outside the workspace folder: ${rel('it-link-out-context.md')}` });
      assert.deepEqual(await api.answer(rel('it-missing-context.md')), { result: 'error', message: `Context file not found: ${rel('it-missing-context.md')}` });
      write('it-invalid-context.md', '# nothing to answer\n');
      const invalid = await api.answer(rel('it-invalid-context.md'));
      assert.equal(invalid.result, 'error');
      assert.match((invalid as { message: string }).message, /^Invalid context format: \.agent\/tmp\/it-invalid-context\.md/);
      assert.equal(fs.readFileSync(outside, 'utf8'), ONE_QUESTION);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('Handle Skill Output: ERROR and SUCCESS from text, AWAIT from the clipboard starts the Answer flow', async () => {
    assert.deepEqual(await api.handleSkillOutput('STATUS: ERROR\nOUTPUT: Linear API failed: 401 Unauthorized'), { status: 'ERROR', message: 'Linear API failed: 401 Unauthorized' });
    assert.deepEqual(await api.handleSkillOutput('done:\n```\nSTATUS: SUCCESS\nOUTPUT:\n  RESULT: PASS\n  REVIEW_PATH: .agent/tmp/review-draft.md\n```'), { status: 'SUCCESS', paths: ['.agent/tmp/review-draft.md'] });
    write('it-handle-context.md', ONE_QUESTION);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.env.clipboard.writeText(`STATUS: AWAIT\r\nCONTEXT_PATH: ${rel('it-handle-context.md')}\r\n`);
    const handled = await vscode.commands.executeCommand('skillflow.handleSkillOutput');
    assert.deepEqual(handled, { status: 'AWAIT', contextPath: rel('it-handle-context.md') });
    await waitStep('Q1', 1);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => !api.activeStep(), 5000, 'the flow to close');
    assert.equal(read('it-handle-context.md'), ONE_QUESTION);
  });
});

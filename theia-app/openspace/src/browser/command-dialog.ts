import { AbstractDialog } from '@theia/core/lib/browser/dialogs';
import type { ActionQuestion, CommandAnswer, CommandQuestion } from '../../../../src/browser.js';
import { COMMAND_ANSWERS } from '../../../../src/browser.js';

/**
 * "The agent wants to run a command": Allow once, Always allow commands like this in this
 * workspace (offered when there is a rule to remember, which the dialog names), or Deny. Escape,
 * closing the dialog and no answer are Deny.
 */
export class CommandDialog extends AbstractDialog<CommandAnswer> {
  private answer: CommandAnswer = 'once';

  constructor(question: CommandQuestion) {
    super({ title: 'OpenSpace: the agent wants to run a command' });
    const body = this.contentNode.appendChild(document.createElement('div'));
    body.className = 'openspace-confirm';
    body.appendChild(document.createElement('p')).textContent = question.message;
    this.appendCloseButton(COMMAND_ANSWERS.deny);
    if (question.rule) {
      body.appendChild(document.createElement('p')).textContent =
        `"Always" allows commands starting with "${question.rule}" in this workspace; ` +
        'you find them in Settings under openspace.security.allowedCommands.';
      const always = this.controlPanel.appendChild(this.createButton(COMMAND_ANSWERS.always));
      always.classList.add('secondary');
      this.addAction(
        always,
        () => {
          this.answer = 'always';
          void this.accept();
        },
        'click',
      );
    }
    this.appendAcceptButton(COMMAND_ANSWERS.once);
  }

  get value(): CommandAnswer {
    return this.answer;
  }
}

/**
 * "The agent wants to commit …" / "… discard changes": what happens, what to look at (the staged
 * diff, what is lost) in a scrolling block, and the question's own yes ("Commit") or Cancel.
 * Escape, closing and no answer are no.
 */
export class ActionDialog extends AbstractDialog<boolean> {
  constructor(question: ActionQuestion) {
    super({ title: `OpenSpace: ${question.title}` });
    const body = this.contentNode.appendChild(document.createElement('div'));
    body.className = 'openspace-confirm';
    body.appendChild(document.createElement('p')).textContent = question.message;
    if (question.detail) {
      const detail = body.appendChild(document.createElement('pre'));
      detail.className = 'openspace-confirm-detail';
      detail.textContent = question.detail;
    }
    this.appendCloseButton('Cancel');
    this.appendAcceptButton(question.accept);
  }

  get value(): boolean {
    return true;
  }
}

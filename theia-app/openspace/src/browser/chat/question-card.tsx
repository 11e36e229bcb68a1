/**
 * A question OpenCode's agent asks the person (its `question` tool): each question with its
 * options (one, or several when it allows), and a text of the person's own unless it forbids it.
 * The agent waits until the person answers or dismisses it.
 */
import * as React from 'react';
import type { QuestionRequest } from '../../common/chat-protocol.js';

export interface QuestionCardProps {
  request: QuestionRequest;
  /** One answer per question: the labels chosen, or the person's own text. */
  onAnswer(requestID: string, answers: string[][]): void;
  onDismiss(requestID: string): void;
}

export function QuestionCard({ request, onAnswer, onDismiss }: QuestionCardProps) {
  const [chosen, setChosen] = React.useState<string[][]>(() => request.questions.map(() => []));
  const [own, setOwn] = React.useState<string[]>(() => request.questions.map(() => ''));
  const answers = request.questions.map((_, i) => (own[i]!.trim() ? [own[i]!.trim()] : chosen[i]!));
  const complete = answers.every((a) => a.length > 0);
  const toggle = (i: number, label: string, multiple: boolean) =>
    setChosen((all) =>
      all.map((picked, j) =>
        j !== i ? picked : multiple ? (picked.includes(label) ? picked.filter((l) => l !== label) : [...picked, label]) : [label],
      ),
    );
  return (
    <div className="os-chat-question" role="group" aria-label="Question from OpenCode">
      {request.questions.map((q, i) => (
        <fieldset key={i} className="os-chat-question-item">
          <legend>{q.header}</legend>
          <div className="os-chat-question-text">{q.question}</div>
          {q.options.map((option) => (
            <label key={option.label} className="os-chat-question-option" title={option.description}>
              <input
                type={q.multiple ? 'checkbox' : 'radio'}
                name={`${request.id}-${i}`}
                checked={chosen[i]!.includes(option.label)}
                onChange={() => toggle(i, option.label, q.multiple === true)}
              />{' '}
              {option.label}
              {option.description && <span className="os-chat-question-description"> — {option.description}</span>}
            </label>
          ))}
          {q.custom !== false && (
            <input
              type="text"
              className="os-chat-question-own"
              aria-label={`Your own answer: ${q.header}`}
              placeholder="Or type your own answer"
              value={own[i]}
              onChange={(e) => setOwn((all) => all.map((text, j) => (j === i ? e.target.value : text)))}
            />
          )}
        </fieldset>
      ))}
      <div className="os-chat-permission-buttons">
        <button type="button" className="os-chat-primary" disabled={!complete} onClick={() => onAnswer(request.id, answers)}>
          Answer
        </button>
        <button type="button" onClick={() => onDismiss(request.id)}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

import { describe, expect, it } from 'vitest';
import { ConsentGate, consentMessage } from './consent.js';

describe('ConsentGate: the person is asked once, whichever IDE asks', () => {
  it('asks one question for calls that arrive while it is open, and a yes holds', async () => {
    const questions: string[] = [];
    let answer!: (allowed: boolean) => void;
    const gate = new ConsentGate<string>((agent) => {
      questions.push(agent);
      return new Promise((resolve) => (answer = resolve));
    });
    const waiting = [gate.check('first'), gate.check('second'), gate.check('third')];
    expect(questions).toEqual(['first']);
    answer(true);
    expect(await Promise.all(waiting)).toEqual([true, true, true]);
    expect(await gate.check('later')).toBe(true);
    expect(questions).toEqual(['first']);
  });

  it('asks again after a no', async () => {
    const answers = [false, true];
    let asked = 0;
    const gate = new ConsentGate<void>(async () => answers[asked++]!);
    expect(await gate.check()).toBe(false);
    expect(await gate.check()).toBe(true);
    expect(asked).toBe(2);
  });

  it('never asks when consent was given up front', async () => {
    const gate = new ConsentGate<void>(() => Promise.reject(new Error('asked')), true);
    expect(await gate.check()).toBe(true);
  });

  it("words the notice the same for an agent's client as the Theia dialog does", () => {
    const message = consentMessage('claude-code');
    expect(message).toMatch(/^OpenSpace: allow an AI agent to control this IDE\?\nThe AI agent "claude-code" wants to control your IDE/);
    expect(message).toMatch(/dangerous terminal commands wait for your confirmation/);
  });
});

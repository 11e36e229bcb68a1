import { describe, expect, it } from 'vitest';
import { completeTask, createTask, listTasks } from '../src/tasks.js';

describe('tasks', () => {
  it('creates tasks with readable ids', () => {
    const a = createTask('ada', 'Write docs');
    const b = createTask('ada', 'Write docs');
    expect(a.id).toBe('write-docs');
    expect(b.id).toBe('write-docs-2');
  });

  it("lists only the owner's tasks", () => {
    createTask('bob', 'Fix bug');
    expect(listTasks('bob', 10).every((t) => t.owner === 'bob')).toBe(true);
  });

  it('completes a task', () => {
    const task = createTask('cy', 'Ship it');
    expect(completeTask('cy', task.id).done).toBe(true);
  });

  // TODO: test deleteTask and the 404 paths.
});

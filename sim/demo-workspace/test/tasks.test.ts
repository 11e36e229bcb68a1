import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completeTask, createTask, listTasks } from '../src/tasks.js';

test('creates tasks with readable ids', () => {
  const a = createTask('ada', 'Write docs');
  const b = createTask('ada', 'Write docs');
  assert.equal(a.id, 'write-docs');
  assert.equal(b.id, 'write-docs-2');
});

test('lists only the owner\'s tasks', () => {
  createTask('bob', 'Fix bug');
  assert.ok(listTasks('bob', 10).every((t) => t.owner === 'bob'));
});

test('completes a task', () => {
  const task = createTask('cy', 'Ship it');
  assert.equal(completeTask('cy', task.id).done, true);
});

// TODO: test deleteTask and the 404 paths.

import { HttpError, nowIso, slugify } from './utils.js';

export interface Task {
  id: string;
  title: string;
  done: boolean;
  owner: string;
  createdAt: string;
  updatedAt: string;
}

const tasks = new Map<string, Task>();

export function listTasks(owner: string, limit: number): Task[] {
  return [...tasks.values()].filter((t) => t.owner === owner).slice(0, limit);
}

export function createTask(owner: string, title: string): Task {
  const base = slugify(title) || 'task';
  let id = base;
  for (let n = 2; tasks.has(id); n++) id = `${base}-${n}`;
  const task: Task = { id, title, done: false, owner, createdAt: nowIso(), updatedAt: nowIso() };
  tasks.set(id, task);
  return task;
}

export function completeTask(owner: string, id: string): Task {
  const task = tasks.get(id);
  if (!task || task.owner !== owner) throw new HttpError(404, `no task ${id}`);
  task.done = true;
  task.updatedAt = nowIso();
  return task;
}

export function deleteTask(owner: string, id: string): void {
  const task = tasks.get(id);
  if (!task || task.owner !== owner) throw new HttpError(404, `no task ${id}`);
  tasks.delete(id);
}

import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { stopWithStarter } from './lost-output.js';

const failure = (code: string) => Object.assign(new Error(`write ${code}`), { code });

it('stops once when a write to its output finds no reader (EPIPE); other errors, and a stdin that is no pipe, leave it running', () => {
  const [stdout, stderr] = [new EventEmitter(), new EventEmitter()];
  const stdin = Object.assign(new EventEmitter(), { fd: undefined });
  let stops = 0;
  stopWithStarter(() => stops++, stdin as unknown as NodeJS.ReadStream, [stdout, stderr] as unknown as NodeJS.WriteStream[]);
  stdout.emit('error', failure('EAGAIN'));
  stdin.emit('end');
  expect(stops).toBe(0);
  stderr.emit('error', failure('EPIPE'));
  stdout.emit('error', failure('EPIPE'));
  expect(stops).toBe(1);
});
